@_exported import SessionCore
