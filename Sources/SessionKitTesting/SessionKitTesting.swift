@_exported import SessionCore
@_exported import SessionKit
