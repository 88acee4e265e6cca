// Interface stub of the part of SwiftUI the sample app (Examples/) and the
// documentation's SwiftUI samples use, as Apple's pages declare it: `View` and
// `App` are `@MainActor @preconcurrency` protocols, `Button` actions are
// `@MainActor`, `.task` takes an `@isolated(any)` closure. Type-checking only
// (see ../../check.sh); layout and rendering are not modelled.
// SwiftUI re-exports Foundation on Apple platforms: a file with `import SwiftUI` alone uses URL and Date.
@_exported import Foundation
// SwiftUI re-exports Observation on Apple platforms: `@Observable` works with `import SwiftUI`.
@_exported import Observation

// https://developer.apple.com/documentation/swiftui/view — `@MainActor @preconcurrency protocol View`
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
@MainActor @preconcurrency public protocol View {
    associatedtype Body: View
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

// https://developer.apple.com/documentation/swiftui/scene — `@MainActor @preconcurrency protocol Scene`
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
@MainActor @preconcurrency public protocol Scene {
    associatedtype Body: Scene
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

// https://developer.apple.com/documentation/swiftui/app — `@MainActor @preconcurrency protocol App`
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
@MainActor @preconcurrency public protocol App {
    associatedtype Body: Scene
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
    @MainActor @preconcurrency init()
}

extension App {
    // https://developer.apple.com/documentation/swiftui/app/main()
    @MainActor @preconcurrency public static func main() { stub() }
}

extension Never: View, Scene {
    public typealias Body = Never
    @ViewBuilder public var body: Never { stub() }
}

// https://developer.apple.com/documentation/swiftui/viewbuilder
@resultBuilder public struct ViewBuilder {
    public static func buildBlock() -> EmptyView { EmptyView() }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)> { stub() }
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
    public static func buildEither<TrueContent: View, FalseContent: View>(first: TrueContent) -> _ConditionalContent<TrueContent, FalseContent> { stub() }
    public static func buildEither<TrueContent: View, FalseContent: View>(second: FalseContent) -> _ConditionalContent<TrueContent, FalseContent> { stub() }
    public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView { stub() }
}

// https://developer.apple.com/documentation/swiftui/scenebuilder
@resultBuilder public struct SceneBuilder {
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
}

public struct EmptyView: View { nonisolated public init() {} ; public var body: Never { stub() } }
public struct AnyView: View { public var body: Never { stub() } }
public struct TupleView<T>: View { public var body: Never { stub() } }
public struct _ConditionalContent<TrueContent: View, FalseContent: View>: View { public var body: Never { stub() } }
extension Optional: View where Wrapped: View {
    public var body: Never { stub() }
}

// https://developer.apple.com/documentation/swiftui/localizedstringkey
public struct LocalizedStringKey: Equatable, ExpressibleByStringInterpolation, Sendable {
    public init(_ value: String) {}
    public init(stringLiteral value: String) {}
}

// https://developer.apple.com/documentation/swiftui/windowgroup
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
public struct WindowGroup<Content: View>: Scene {
    public init(@ViewBuilder content: () -> Content) {}
    public var body: Never { stub() }
}

// https://developer.apple.com/documentation/swiftui/text — `@frozen struct Text`
public struct Text: View, Equatable, Sendable {
    // https://developer.apple.com/documentation/swiftui/text/init(_:tablename:bundle:comment:)
    public init(_ key: LocalizedStringKey) {}
    // https://developer.apple.com/documentation/swiftui/text/init(_:)-9d1g4
    @_disfavoredOverload public init<S: StringProtocol>(_ content: S) {}
    // https://developer.apple.com/documentation/swiftui/text/init(verbatim:)
    public init(verbatim content: String) {}
    public var body: Never { stub() }
}

// https://developer.apple.com/documentation/swiftui/button — `@MainActor @preconcurrency struct Button<Label> where Label : View`
@MainActor @preconcurrency public struct Button<Label: View>: View {
    // https://developer.apple.com/documentation/swiftui/button/init(action:label:)
    public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {}
    public var body: Never { stub() }
}
extension Button where Label == Text {
    // https://developer.apple.com/documentation/swiftui/button/init(_:action:)-1asy
    public init(_ titleKey: LocalizedStringKey, action: @escaping @MainActor () -> Void) {}
    @_disfavoredOverload public init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) {}
}

// https://developer.apple.com/documentation/swiftui/textfield
@MainActor @preconcurrency public struct TextField<Label: View>: View { public var body: Never { stub() } }
extension TextField where Label == Text {
    // https://developer.apple.com/documentation/swiftui/textfield/init(_:text:)-4hqp1
    public init(_ titleKey: LocalizedStringKey, text: Binding<String>) {}
}

// https://developer.apple.com/documentation/swiftui/securefield
@MainActor @preconcurrency public struct SecureField<Label: View>: View { public var body: Never { stub() } }
extension SecureField where Label == Text {
    // https://developer.apple.com/documentation/swiftui/securefield/init(_:text:)-6amvn
    public init(_ titleKey: LocalizedStringKey, text: Binding<String>) {}
}

// https://developer.apple.com/documentation/swiftui/form
@MainActor @preconcurrency public struct Form<Content: View>: View {
    public init(@ViewBuilder content: () -> Content) {}
    public var body: Never { stub() }
}

// https://developer.apple.com/documentation/swiftui/group
public struct Group<Content> {
    public init(@ViewBuilder content: () -> Content) where Content: View {}
}
extension Group: View where Content: View { public var body: Never { stub() } }

// https://developer.apple.com/documentation/swiftui/foreach — `struct ForEach<Data, ID, Content> where Data : RandomAccessCollection, ID : Hashable`
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content> {
    public var data: Data
}
extension ForEach: View where Content: View {
    public var body: Never { stub() }
}
extension ForEach where ID == Data.Element.ID, Content: View, Data.Element: Identifiable {
    // https://developer.apple.com/documentation/swiftui/foreach/init(_:content:)-90hc9
    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) { stub() }
}

// https://developer.apple.com/documentation/swiftui/vstack
@MainActor @preconcurrency public struct VStack<Content: View>: View {
    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {}
    public var body: Never { stub() }
}
public struct HorizontalAlignment: Equatable, Sendable {
    public static let center = HorizontalAlignment()
    public static let leading = HorizontalAlignment()
}

// https://developer.apple.com/documentation/swiftui/progressview
@MainActor @preconcurrency public struct ProgressView<Label: View, CurrentValueLabel: View>: View {
    public var body: Never { stub() }
}
extension ProgressView where Label == EmptyView, CurrentValueLabel == EmptyView {
    public init() {}
}

// https://developer.apple.com/documentation/swiftui/binding — `@frozen @propertyWrapper @dynamicMemberLookup struct Binding<Value>`
@propertyWrapper @dynamicMemberLookup public struct Binding<Value> {
    // https://developer.apple.com/documentation/swiftui/binding/init(get:set:)-6g3d5
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {}
    public var wrappedValue: Value { get { stub() } nonmutating set { stub() } }
    public var projectedValue: Binding<Value> { self }
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> { stub() }
}
extension Binding: @unchecked Sendable where Value: Sendable {}

// https://developer.apple.com/documentation/swiftui/dynamicproperty
public protocol DynamicProperty {}

// https://developer.apple.com/documentation/swiftui/state — `@frozen @propertyWrapper struct State<Value>`
@propertyWrapper public struct State<Value>: DynamicProperty {
    public init(wrappedValue value: Value) {}
    public init(initialValue value: Value) {}
    public var wrappedValue: Value { get { stub() } nonmutating set { stub() } }
    public var projectedValue: Binding<Value> { stub() }
}
extension State: Sendable where Value: Sendable {}

// https://developer.apple.com/documentation/swiftui/environment — `@frozen @propertyWrapper struct Environment<Value>`
@propertyWrapper public struct Environment<Value>: DynamicProperty {
    // https://developer.apple.com/documentation/swiftui/environment/init(_:)-8slkf
    public init(_ objectType: Value.Type) where Value: AnyObject & Observable {}
    // https://developer.apple.com/documentation/swiftui/environment/wrappedvalue
    public var wrappedValue: Value { stub() }
}
extension Environment: Sendable where Value: Sendable {}

// https://developer.apple.com/documentation/swiftui/bindable — `@dynamicMemberLookup @propertyWrapper struct Bindable<Value>`
@propertyWrapper @dynamicMemberLookup public struct Bindable<Value> {
    public init(wrappedValue: Value) where Value: AnyObject & Observable {}
    public var wrappedValue: Value { stub() }
    public var projectedValue: Bindable<Value> { self }
    public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<Value, Subject>) -> Binding<Subject> where Value: AnyObject { stub() }
}

public struct ModifiedContent<Content, Modifier> {
    public init(content: Content, modifier: Modifier) {}
}
extension ModifiedContent: View where Content: View { public var body: Never { stub() } }
public struct _Modifier {}

extension View {
    // https://developer.apple.com/documentation/swiftui/view/environment(_:)
    // `nonisolated func environment<T>(_ object: T?) -> some View where T : AnyObject, T : Observable`
    nonisolated public func environment<T: AnyObject & Observable>(_ object: T?) -> some View {
        ModifiedContent(content: self, modifier: _Modifier())
    }
    // https://developer.apple.com/documentation/swiftui/view/task(name:priority:file:line:_:)
    // `nonisolated func task(name: String? = nil, priority: TaskPriority = .userInitiated, file: String = #fileID,
    //  line: Int = #line, _ action: sending @escaping @isolated(any) () async -> Void) -> some View`
    nonisolated public func task(
        name: String? = nil, priority: TaskPriority = .userInitiated, file: String = #fileID, line: Int = #line,
        _ action: sending @escaping @isolated(any) () async -> Void
    ) -> some View {
        ModifiedContent(content: self, modifier: _Modifier())
    }
    // https://developer.apple.com/documentation/swiftui/view/onopenurl(perform:)
    nonisolated public func onOpenURL(perform action: @escaping (URL) -> Void) -> some View {
        ModifiedContent(content: self, modifier: _Modifier())
    }
    // https://developer.apple.com/documentation/swiftui/view/disabled(_:)
    nonisolated public func disabled(_ disabled: Bool) -> some View {
        ModifiedContent(content: self, modifier: _Modifier())
    }
}

func stub() -> Never { fatalError("Apple SDK interface stub: type-checking only") }
