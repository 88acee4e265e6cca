#!/usr/bin/env bash
# Type-checks SessionKit's Apple-only code (and the sample app, and the
# documentation's Swift blocks, doc comments included) on Linux, against interface stubs of the Apple
# SDK declarations it uses (Stubs/: Security, UIKit, AppKit,
# AuthenticationServices, os, CryptoKit, SwiftUI, and a few Apple-only
# Foundation members). Not Xcode: see "What the Apple check proves" in the README.
#
#   Tools/AppleSDKStubs/check.sh            # SessionKit for iOS, macOS, Mac Catalyst, tvOS, visionOS and watchOS; the sample app (iOS, macOS); doc blocks (iOS)
#   Tools/AppleSDKStubs/check.sh --plant    # also proves that planted defects in Apple-only files fail
#   Tools/AppleSDKStubs/check.sh --no-docs  # skip the documentation blocks
#   Tools/AppleSDKStubs/check.sh --keep     # keep the built modules and print where (to rerun docblocks.py by hand)
#
# How: `canImport(X)` is true when a module X is on the import path, so each
# stub is built as a module of that name and put on `-I`. `#if os(iOS)` and
# friends cannot be made true on Linux, so the sources are copied and those
# conditions rewritten to compile flags (SDKSTUB_OS_iOS, ...) that each
# configuration sets; every rewrite keeps line numbers, and errors are printed
# with the original paths. The stubs never enter what an app resolves: they
# are not in any Package.swift.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
plant=0
docs=1
keep=0
for arg in "$@"; do
    case "$arg" in
        --plant) plant=1 ;;
        --no-docs) docs=0 ;;
        --keep) keep=1 ;;
        *) echo "usage: $0 [--plant] [--no-docs] [--keep]" >&2; exit 2 ;;
    esac
done
work="$(mktemp -d)"
if [ "$keep" = 1 ]; then echo "apple-check: work folder $work (kept)"; else trap 'rm -rf "$work"' EXIT; fi

# Our code: Swift 6 language mode and the package's upcoming features, warnings as errors.
ours=(-swift-version 6 -enable-upcoming-feature ExistentialAny -enable-upcoming-feature MemberImportVisibility -parse-as-library)
emit() { # emit <module> <out dir> <swiftc args...>: builds a module's interface (and type-checks it)
    local module="$1" out="$2"; shift 2
    mkdir -p "$out"
    swiftc -emit-module -wmo -module-name "$module" -emit-module-path "$out/$module.swiftmodule" "$@"
}

# swift-log, SessionKit's one dependency on Apple platforms (swift-crypto is Linux-only there: CryptoKit stands in).
[ -d "$root/.build/checkouts/swift-log" ] || (cd "$root" && swift package resolve >/dev/null)
common="$work/common"
emit Logging "$common" -swift-version 6 -parse-as-library -package-name swift_log \
    $(find "$root/.build/checkouts/swift-log/Sources/Logging" -name '*.swift')
emit SessionCore "$common" "${ours[@]}" -warnings-as-errors $(find "$root/Sources/SessionCore" -name '*.swift')

# Each configuration: its stub modules and the os() conditions that hold there.
# iOS, tvOS, visionOS, watchOS: UIKit on the path, no AppKit. macOS: AppKit, no
# UIKit. Mac Catalyst: both (AppKit can be imported there), os(iOS) and
# targetEnvironment(macCatalyst). The package's platforms are all five.
platforms="ios macos catalyst tvos visionos watchos"
ui_modules() { # the UI frameworks importable on a platform
    case "$1" in
        macos) echo "AppKit" ;;
        catalyst) echo "UIKit AppKit" ;;
        *) echo "UIKit" ;;
    esac
}
stubs_for() { # stubs_for <platform>
    local platform="$1" dir="$work/$1/stubs" s="$here/Stubs"
    # Each platform's stubs hold only what that platform has (a stub tests the
    # platform's SDKSTUB_OS_* flag), and they are built with library evolution,
    # as Apple's frameworks are: an enum Apple may extend (ASAuthorizationError.Code)
    # then needs `@unknown default` in a switch, as in Xcode.
    # Linux's Foundation is not built with library evolution, so each stub would warn that it
    # imports it; the warning says nothing about the stubs, which are not our code's to fix.
    # shellcheck disable=SC2046
    local stub=(-swift-version 6 -parse-as-library -enable-library-evolution -suppress-warnings $(os_flags "$platform"))
    emit FoundationAppleOnly "$dir" "${stub[@]}" "$s/FoundationAppleOnly/FoundationAppleOnly.swift"
    # shellcheck disable=SC2046
    # LocalAuthentication: every platform but tvOS (developer.apple.com/documentation/localauthentication/lacontext).
    local la="LocalAuthentication"; [ "$platform" = tvos ] && la=""
    for module in Security os $la $(ui_modules "$platform"); do
        emit "$module" "$dir" "${stub[@]}" "$s/$module/$module.swift"
    done
    # CryptoKit after Security and LocalAuthentication: the Secure Enclave key's initialisers name both.
    emit CryptoKit "$dir" "${stub[@]}" -I "$dir" "$s/CryptoKit/CryptoKit.swift"
    emit AuthenticationServices "$dir" "${stub[@]}" -I "$dir" "$s"/AuthenticationServices/*.swift
    emit SwiftUI "$dir" "${stub[@]}" -I "$dir" "$s/SwiftUI/SwiftUI.swift"
    # Not Apple's: supabase-swift's names, for the blocks of MovingFromSupabaseSwift.md (imported only there).
    emit Supabase "$dir" -swift-version 6 -parse-as-library "$s/Supabase/Supabase.swift"
}
os_flags() { # the -D flags standing for the platform's os()/targetEnvironment() conditions
    case "$1" in
        ios) echo "-D SDKSTUB_OS_iOS" ;;
        macos) echo "-D SDKSTUB_OS_macOS" ;;
        catalyst) echo "-D SDKSTUB_OS_iOS -D SDKSTUB_ENV_macCatalyst" ;;
        tvos) echo "-D SDKSTUB_OS_tvOS" ;;
        visionos) echo "-D SDKSTUB_OS_visionOS" ;;
        watchos) echo "-D SDKSTUB_OS_watchOS" ;;
    esac
}
# Rewrites `os(iOS)`, `targetEnvironment(macCatalyst)`, ... in #if/#elseif lines only.
rewrite_conditions() { # rewrite_conditions <from dir> <to dir>
    rm -rf "$2"; mkdir -p "$2"; cp -R "$1/." "$2/"
    find "$2" -name '*.swift' -print0 | xargs -0 sed -i -E \
        -e '/^[[:space:]]*#(if|elseif)/ s/\bos\((iOS|macOS|tvOS|watchOS|visionOS)\)/SDKSTUB_OS_\1/g' \
        -e '/^[[:space:]]*#(if|elseif)/ s/\btargetEnvironment\((macCatalyst|simulator)\)/SDKSTUB_ENV_\1/g'
}
apple_flags() { # apple_flags <platform>: what a file compiled "on" that platform gets
    echo "-I $common -I $work/$1/stubs $(os_flags "$1") -Xfrontend -import-module -Xfrontend FoundationAppleOnly"
}

# Type-checks SessionKit for one platform from <sources> (a copy of Sources/SessionKit);
# errors name Sources/SessionKit/... paths.
check_sessionkit() { # check_sessionkit <platform> <sources> <module out dir>
    local platform="$1" src="$work/$1/src-$RANDOM" out="$3"
    rewrite_conditions "$2" "$src"
    # shellcheck disable=SC2046
    emit SessionKit "$out" "${ours[@]}" -warnings-as-errors $(apple_flags "$platform") \
        $(find "$src" -name '*.swift' | sort) 2>&1 | sed "s#$src#Sources/SessionKit#g"
    return "${PIPESTATUS[0]}"
}

status=0
for platform in $platforms; do
    echo "apple-check: $platform: building the SDK stubs"
    stubs_for "$platform"
    echo "apple-check: $platform: type-checking Sources/SessionKit (Swift 6, warnings as errors)"
    if ! check_sessionkit "$platform" "$root/Sources/SessionKit" "$work/$platform/modules"; then
        echo "apple-check: FAILED: SessionKit does not type-check for $platform against the SDK stubs" >&2
        status=1
        continue
    fi
    # The sample app and the documentation are iOS code; macOS checks the app too.
    case "$platform" in ios|macos) ;; *) continue ;; esac
    emit SessionKitTesting "$work/$platform/modules" "${ours[@]}" -warnings-as-errors $(apple_flags "$platform") \
        -I "$work/$platform/modules" $(find "$root/Sources/SessionKitTesting" -name '*.swift')
    if [ -d "$root/Examples" ]; then
        echo "apple-check: $platform: type-checking Examples/ (each Examples/<app>/<target>/ is one module)"
        for app in "$root"/Examples/*/*/; do
            [ -n "$(find "$app" -name '*.swift' -print -quit)" ] || continue
            # A module per target, checked as SessionKit is (SIL diagnostics included: data races, uninitialised values).
            name="$(basename "$(dirname "$app")")_$(basename "$app")"
            # shellcheck disable=SC2046
            if ! emit "$name" "$work/$platform/examples" -swift-version 6 -parse-as-library -warnings-as-errors \
                $(apple_flags "$platform") -I "$work/$platform/modules" $(find "$app" -name '*.swift' | sort); then
                echo "apple-check: FAILED: $app does not type-check for $platform" >&2
                status=1
            fi
        done
    fi
done

if [ "$docs" = 1 ] && [ "$status" = 0 ]; then
    echo "apple-check: ios: type-checking the Swift blocks of README.md, the DocC articles, docs/*.md and the /// comments of Sources/"
    # shellcheck disable=SC2046
    python3 "$here/docblocks.py" --comments --root "$root" --out "$work/docs" -- \
        swiftc -emit-module -wmo -swift-version 6 -suppress-warnings $(apple_flags ios) -I "$work/ios/modules" || status=1
fi

if [ "$plant" = 1 ] && [ "$status" = 0 ]; then
    # Each defect, alone, must fail the check and be named at its file. A check
    # that passes a planted typo, wrong label or lost isolation proves nothing.
    plant_one() { # plant_one <platform> <file under Sources/SessionKit> <sed expression> <what> [<expected error, a regex>]
        local copy="$work/plant-src" log="$work/plant.log"
        rm -rf "$copy"; cp -R "$root/Sources/SessionKit" "$copy"
        sed -i -E "$3" "$copy/$2"
        if cmp -s "$copy/$2" "$root/Sources/SessionKit/$2"; then
            echo "apple-check: plant: '$4' changed nothing in $2: the plant list is stale" >&2; return 1
        fi
        if check_sessionkit "$1" "$copy" "$work/plant-out" >"$log" 2>&1; then
            echo "apple-check: plant: FAILED: $4 in $2 ($1) type-checked" >&2; return 1
        fi
        if ! grep -q "Sources/SessionKit/$2:[0-9]*:[0-9]*: error" "$log"; then
            echo "apple-check: plant: FAILED: $4 in $2 ($1) failed, but no error names the file:" >&2
            head -20 "$log" >&2; return 1
        fi
        local expected="${5:-error: }"
        if ! grep -Eq "$expected" "$log"; then
            echo "apple-check: plant: FAILED: $4 in $2 ($1) failed, but not with /$expected/:" >&2
            grep -m3 'error: ' "$log" >&2; return 1
        fi
        echo "apple-check: plant: caught $4 ($2, $1): $(grep -m1 -Eo "$expected.*" "$log")"
    }
    plant_one ios Storage/Keychain/SecItemKeychain.swift 's/SecItemCopyMatching\(/SecItemCopyMatchng(/' "a typo in a Security call" || status=1
    plant_one ios OAuth/SystemWebAuthenticationPresenter.swift 's/callbackURLScheme: callbackScheme/callbackScheme: callbackScheme/' "a wrong label on ASWebAuthenticationSession.init" || status=1
    plant_one ios Storage/Keychain/UIApplicationProtectedData.swift 's/@MainActor private static func availableNow/private static func availableNow/' "UIApplication read off the main actor" "error: main actor-isolated" || status=1
    plant_one ios Platform/ExpiringActivity.swift 's/withReason: reason/reason: reason/' "a wrong label in an os(iOS)-only file" || status=1
    plant_one ios Logging/OSLogHandler.swift 's/privacy: \.public/privacy: .open/' "an OSLogPrivacy that does not exist" || status=1
    plant_one watchos Storage/KeychainSessionStore+Apple.swift 's/= AlwaysAvailableProtectedData\(\)/= AlwaysAvailableProtectedData(timeout: 1)/' "a wrong argument in the branch for watchOS" || status=1
    plant_one macos Lifecycle/NSApplicationLifecycle.swift 's/NSWorkspace\.didWakeNotification/NSWorkspace.didWakeUpNotification/' "a misspelt AppKit notification" || status=1
    # Platforms (issue 42): each platform's stubs hold only what it has, and are built with library evolution.
    plant_one watchos Lifecycle/UIApplicationLifecycle.swift 's/^#if canImport\(UIKit\) && !os\(watchOS\)/#if canImport(UIKit)/' \
        "a platform branch removed (UIApplication on watchOS)" "error: cannot find (type )?'UIApplication' in scope" || status=1
    plant_one ios OAuth/AppleSignInController.swift \
        's/^import AuthenticationServices$/import AuthenticationServices\nfunc planted(_ c: ASAuthorizationError.Code) -> Int { switch c { case .unknown, .canceled, .invalidResponse, .notHandled, .failed, .notInteractive, .matchedExcludedCredential, .credentialImport, .credentialExport, .preferSignInWithApple, .deviceNotConfiguredForPasskeyCreation: 0 } }/' \
        "an exhaustive switch over an extensible Apple enum without @unknown default" "may have additional unknown values" || status=1
    # The biometric gate (issue 42, item 1): access-control keys, LAContext's members, and a platform branch.
    plant_one ios Storage/Biometric/SecItemKeychain+AccessControl.swift 's/SecAccessControlCreateFlags\(rawValue: CFOptionFlags\(protection.rawValue\)\)/SecAccessControlCreateFlags(protection.rawValue)/' \
        "SecAccessControlCreateFlags built without its rawValue label" || status=1
    plant_one watchos Storage/Biometric/SecItemKeychain+AccessControl.swift 's/^        #if !os\(watchOS\)$/        #if true/' \
        "a platform branch removed (touchIDAuthenticationAllowableReuseDuration on watchOS)" "touchIDAuthenticationAllowableReuseDuration" || status=1
    plant_one ios Storage/Biometric/SystemBiometrics.swift 's/^        @unknown default: return .none$//' \
        "an exhaustive switch over LABiometryType without @unknown default" || status=1
    plant_one tvos Storage/Biometric/SecItemKeychain+AccessControl.swift 's/^#if canImport\(Security\) \&\& canImport\(LocalAuthentication\)$/#if canImport(Security)/' \
        "LocalAuthentication used on tvOS, which lacks it" "no such module 'LocalAuthentication'" || status=1
    plant_one ios OAuth/SystemWebAuthenticationPresenter.swift 's/return UIWindow\(windowScene: scene\)/return UIWindow()/' \
        "a window without a scene (UIWindow(), deprecated in iOS 26)" "deprecated" || status=1
    if [ -f "$root/Examples/SampleApp/App/RunsView.swift" ]; then
        # The sample app's check fails too: a wrong label in a copy of one of its files.
        rm -rf "$work/plant-app"; cp -R "$root/Examples/SampleApp/App" "$work/plant-app"
        sed -i 's/await model.signOut()/await model.signOut(everywhere: true)/' "$work/plant-app/RunsView.swift"
        # shellcheck disable=SC2046
        if emit PlantedApp "$work/plant-app-out" -swift-version 6 -parse-as-library $(apple_flags ios) -I "$work/ios/modules" \
            $(find "$work/plant-app" -name '*.swift') >"$work/plant.log" 2>&1; then
            echo "apple-check: plant: FAILED: a wrong label in the sample app type-checked" >&2; status=1
        elif ! grep -q "RunsView.swift:[0-9]*:[0-9]*: error" "$work/plant.log"; then
            echo "apple-check: plant: FAILED: the sample app failed, but no error names RunsView.swift" >&2; status=1
        else
            echo "apple-check: plant: caught a wrong label in the sample app (RunsView.swift): $(grep -m1 -o 'error: .*' "$work/plant.log")"
        fi
    fi
    if [ "$docs" = 1 ]; then
        # A documentation block with a wrong label must fail, named by its Markdown file and line.
        mkdir -p "$work/plant-docs/docs"
        printf '# Planted\n\nText.\n\n```swift\nlet client = SessionClient(configuration: .init(\n    backend: .goTrue(url: authURL, apiKey: anonKey), storage: InMemorySessionStore()))\n```\n' \
            > "$work/plant-docs/docs/PLANTED.md"
        # shellcheck disable=SC2046
        if python3 "$here/docblocks.py" --root "$work/plant-docs" --out "$work/plant-docs-out" -- \
            swiftc -emit-module -wmo -swift-version 6 -suppress-warnings $(apple_flags ios) -I "$work/ios/modules" >"$work/plant.log" 2>&1; then
            echo "apple-check: plant: FAILED: a wrong label in a documentation block compiled" >&2; status=1
        elif ! grep -q "docs/PLANTED.md:[67]: in the block at line 6" "$work/plant.log"; then
            echo "apple-check: plant: FAILED: the documentation failure does not name docs/PLANTED.md and its block:" >&2
            tail -5 "$work/plant.log" >&2; status=1
        else
            echo "apple-check: plant: caught a wrong label in a documentation block: $(grep -m1 'PLANTED.md:[67]: in the block' "$work/plant.log" | sed 's/^ *//')"
        fi
        # A block that claims to be a sample file but has drifted from it must fail too.
        mkdir -p "$work/plant-sample/docs" "$work/plant-sample/Examples/App"
        printf 'let answer = 42\nlet question = "?"\n' > "$work/plant-sample/Examples/App/Sample.swift"
        printf '# Planted\n\n<!-- sample: Examples/App/Sample.swift -->\n```swift\nlet answer = 41\n```\n' > "$work/plant-sample/docs/PLANTED.md"
        if python3 "$here/docblocks.py" --root "$work/plant-sample" --out "$work/plant-sample-out" -- true >"$work/plant.log" 2>&1; then
            echo "apple-check: plant: FAILED: a sample block that differs from its file passed" >&2; status=1
        elif ! grep -q "docs/PLANTED.md:5: the sample block differs from Examples/App/Sample.swift" "$work/plant.log"; then
            echo "apple-check: plant: FAILED: the drifted sample block is not named:" >&2
            tail -5 "$work/plant.log" >&2; status=1
        else
            echo "apple-check: plant: caught a sample block that drifted from its file"
        fi
    fi
fi

if [ "$status" = 0 ]; then
    echo "apple-check: ok"
else
    echo "apple-check: FAILED" >&2
fi
exit "$status"
