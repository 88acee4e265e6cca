#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))
import AuthenticationServices
import Foundation
#if canImport(UIKit)
import UIKit
#endif
#if canImport(AppKit) && !targetEnvironment(macCatalyst)
import AppKit
#endif

/// ``WebAuthenticationPresenter`` on `ASWebAuthenticationSession` (iOS,
/// Mac Catalyst, macOS, visionOS).
///
/// The session runs on the main actor and is kept alive until its completion
/// handler has run; cancelling the calling task cancels it.
public struct SystemWebAuthenticationPresenter: WebAuthenticationPresenter {
    /// Returns the window the sheet is presented from; called on the main thread.
    public typealias AnchorProvider = @MainActor @Sendable () -> ASPresentationAnchor

    private let anchor: AnchorProvider
    private let prefersEphemeralWebBrowserSession: Bool
    /// Whether the anchor has a window to give; `nil`: the app's own anchor, not asked.
    private var anchorReady: (@MainActor @Sendable () -> Bool)?

    /// Presents from the window `anchor` returns.
    ///
    /// - Parameters:
    ///   - prefersEphemeralWebBrowserSession: `true` to share no cookies with
    ///     Safari (no "wants to use … to sign in" prompt, but no remembered
    ///     provider login either).
    ///   - anchor: the window to present from.
    public init(prefersEphemeralWebBrowserSession: Bool = false, anchor: @escaping AnchorProvider) {
        self.anchor = anchor
        self.prefersEphemeralWebBrowserSession = prefersEphemeralWebBrowserSession
    }

    /// Presents from the app's key window (``keyWindow()``).
    @available(iOSApplicationExtension, unavailable)
    @available(macCatalystApplicationExtension, unavailable)
    @available(visionOSApplicationExtension, unavailable)
    public init(prefersEphemeralWebBrowserSession: Bool = false) {
        self.init(prefersEphemeralWebBrowserSession: prefersEphemeralWebBrowserSession, anchor: { Self.keyWindow() })
        self.anchorReady = { Self.canGiveKeyWindow() }
    }

    public func present(_ url: URL, callbackScheme: String) async throws(WebAuthenticationError) -> URL {
        let run = WebAuthenticationRun()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<URL, WebAuthenticationError>, Never>) in
                run.arm(continuation)
                Task { @MainActor [anchorReady] in
                    if let anchorReady, !anchorReady() {
                        run.finish(.failure(WebAuthenticationError.presentationFailed.with(detail: "no window scene is connected")))
                        return
                    }
                    Self.start(
                        url: url, callbackScheme: callbackScheme, ephemeral: prefersEphemeralWebBrowserSession,
                        anchor: anchor, run: run)
                }
            }
        } onCancel: {
            Task { @MainActor in run.cancel() }
        }
        return try result.get()
    }

    @MainActor private static func start(
        url: URL, callbackScheme: String, ephemeral: Bool, anchor: @escaping AnchorProvider, run: WebAuthenticationRun
    ) {
        // Marked @Sendable so it is not taken as main-actor code: the system may call it on any thread.
        let completion: @Sendable (URL?, (any Error)?) -> Void = { callbackURL, error in
            run.finish(Self.result(callbackURL, error))
        }
        let session: ASWebAuthenticationSession
        if #available(iOS 17.4, macOS 14.4, visionOS 1.1, *) {
            session = ASWebAuthenticationSession(url: url, callback: .customScheme(callbackScheme), completionHandler: completion)
        } else {
            session = ASWebAuthenticationSession(url: url, callbackURLScheme: callbackScheme, completionHandler: completion)
        }
        let provider = PresentationAnchor(anchor: anchor)
        // `presentationContextProvider` is weak: the run keeps the provider (and the session) alive.
        session.presentationContextProvider = provider
        session.prefersEphemeralWebBrowserSession = ephemeral
        guard run.hold(session, provider) else {
            // The calling task was cancelled before the sheet could be shown.
            run.finish(.failure(.cancelled))
            return
        }
        if !session.start() {
            run.finish(.failure(WebAuthenticationError.presentationFailed.with(detail: "ASWebAuthenticationSession did not start")))
        }
    }

    private static func result(_ callbackURL: URL?, _ error: (any Error)?) -> Result<URL, WebAuthenticationError> {
        if let callbackURL { return .success(callbackURL) }
        if let error = error as? ASWebAuthenticationSessionError, error.code == .canceledLogin {
            return .failure(.cancelled)
        }
        let detail = error.map { "\(($0 as NSError).domain) \(($0 as NSError).code)" } ?? "no callback URL"
        return .failure(WebAuthenticationError.presentationFailed.with(detail: detail))
    }

    /// The key window of the foreground scene (iOS, visionOS) or the app (macOS).
    ///
    /// On iOS and visionOS the window always belongs to a window scene: a
    /// scene's key window, or a new window on the foreground scene.
    /// - Precondition: on iOS and visionOS, a window scene is connected (one
    ///   is while the app shows UI). ``SystemWebAuthenticationPresenter``
    ///   checks first and fails with ``WebAuthenticationError/presentationFailed``.
    @available(iOSApplicationExtension, unavailable)
    @available(macCatalystApplicationExtension, unavailable)
    @available(visionOSApplicationExtension, unavailable)
    @MainActor public static func keyWindow() -> ASPresentationAnchor {
        #if canImport(UIKit)
        let scenes = windowScenes()
        if let window = scenes.lazy.flatMap(\.windows).first(where: \.isKeyWindow) ?? scenes.first?.windows.first {
            return window
        }
        // UIWindow() is deprecated in iOS and visionOS 26, and a window without a scene cannot
        // present the sheet: with no scene there is no window to give.
        guard let scene = scenes.first else {
            preconditionFailure("SystemWebAuthenticationPresenter.keyWindow(): no window scene is connected")
        }
        return UIWindow(windowScene: scene)
        #else
        return NSApplication.shared.keyWindow ?? NSApplication.shared.windows.first ?? ASPresentationAnchor()
        #endif
    }

    /// Whether ``keyWindow()`` has a window to give: on iOS and visionOS, a connected window scene.
    @available(iOSApplicationExtension, unavailable)
    @available(macCatalystApplicationExtension, unavailable)
    @available(visionOSApplicationExtension, unavailable)
    @MainActor static func canGiveKeyWindow() -> Bool {
        #if canImport(UIKit)
        !windowScenes().isEmpty
        #else
        true
        #endif
    }

    #if canImport(UIKit)
    /// The connected window scenes, those in the foreground first.
    @available(iOSApplicationExtension, unavailable)
    @available(macCatalystApplicationExtension, unavailable)
    @available(visionOSApplicationExtension, unavailable)
    @MainActor private static func windowScenes() -> [UIWindowScene] {
        let scenes = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }
        return scenes.filter { $0.activationState == .foregroundActive } + scenes
    }
    #endif
}

/// The presentation context: answers with the app's window.
private final class PresentationAnchor: NSObject, ASWebAuthenticationPresentationContextProviding {
    private let anchor: SystemWebAuthenticationPresenter.AnchorProvider

    init(anchor: @escaping SystemWebAuthenticationPresenter.AnchorProvider) {
        self.anchor = anchor
    }

    // The requirement is nonisolated; the system calls it on the main thread.
    nonisolated func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
        MainActor.assumeIsolated { anchor() }
    }
}

/// One presentation: its continuation, resumed once, and what must stay alive until then.
private final class WebAuthenticationRun: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Result<URL, WebAuthenticationError>, Never>?
    private var session: ASWebAuthenticationSession?
    private var provider: PresentationAnchor?
    private var isCancelled = false

    func arm(_ continuation: CheckedContinuation<Result<URL, WebAuthenticationError>, Never>) {
        lock.withLock { self.continuation = continuation }
    }

    /// Keeps the session and its provider; `false` if the run was cancelled already.
    func hold(_ session: ASWebAuthenticationSession, _ provider: PresentationAnchor) -> Bool {
        lock.withLock {
            guard !isCancelled else { return false }
            self.session = session
            self.provider = provider
            return true
        }
    }

    /// Resumes the caller once; later calls do nothing.
    func finish(_ result: Result<URL, WebAuthenticationError>) {
        let taken: CheckedContinuation<Result<URL, WebAuthenticationError>, Never>? = lock.withLock {
            defer {
                continuation = nil
                session = nil
                provider = nil
            }
            return continuation
        }
        taken?.resume(returning: result)
    }

    /// Cancels the sheet (on the main actor); its completion handler then finishes the run.
    @MainActor func cancel() {
        let running: ASWebAuthenticationSession? = lock.withLock {
            isCancelled = true
            return session
        }
        if let running {
            running.cancel()
        } else {
            finish(.failure(.cancelled))
        }
    }
}
#endif
