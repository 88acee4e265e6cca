// Shared by the property-checking targets: `precondition` prints no message in
// -O builds, and a failed property must say which one failed.
func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
