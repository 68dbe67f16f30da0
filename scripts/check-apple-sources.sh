#!/usr/bin/env bash
# Type-checks the Kinema module as Apple's SDKs would compile it: with CoreGraphics and
# QuartzCore present (stand-ins from Tests/AppleStandIns, written from Apple's documented
# signatures), so the CoreGraphics conformances and the CAKeyframeAnimation builder, which a
# Linux build leaves out, are compiled too; and the Swift and SwiftUI sources the CLI writes. Needs the debug build's modules (swift-numerics).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product kinema >/dev/null
modules=$(swift build --show-bin-path)/Modules
shims=.build/checkouts/swift-numerics/Sources/_NumericsShims/include  # RealModule's C shims
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swiftc -parse-as-library -module-name CoreGraphics -emit-module -emit-module-path "$work/CoreGraphics.swiftmodule" \
    Tests/AppleStandIns/CoreGraphics.swift
swiftc -parse-as-library -module-name QuartzCore -I "$work" -emit-module -emit-module-path "$work/QuartzCore.swiftmodule" \
    Tests/AppleStandIns/QuartzCore.swift
# SwiftUI too (its custom animations); the stand-in also checks the SwiftUI exports below.
swiftc -parse-as-library -module-name SwiftUI -I "$work" -emit-module -emit-module-path "$work/SwiftUI.swiftmodule" \
    Tests/AppleStandIns/SwiftUI.swift
find Sources/Kinema -name '*.swift' -print0 | xargs -0 swiftc -emit-module -emit-module-path "$work/Kinema.swiftmodule" \
    -parse-as-library -module-name Kinema -swift-version 6 -package-name kinema -I "$work" -I "$modules" -I "$shims"
# The articles' SwiftUI snippets, against that module.
swiftc -typecheck -swift-version 6 -I "$work" -I "$modules" -I "$shims" Tests/AppleStandIns/Snippets/*.swift
# The check must see the Apple-only code: a misspelt property there fails it (QuartzCore's and
# SwiftUI's: the keyframe builder, the custom animations' state).
misspelt() {  # file, sed expression, what
    sed "$2" "$1" > "$work/Misspelt.swift"
    if find Sources/Kinema -name '*.swift' ! -path "$1" -print0 \
        | xargs -0 swiftc -typecheck -parse-as-library -module-name Kinema -swift-version 6 -package-name kinema \
            -I "$work" -I "$modules" -I "$shims" "$work/Misspelt.swift" 2>/dev/null; then
        echo "check-apple-sources: a misspelt $3 type-checked: the check sees nothing" >&2
        exit 1
    fi
}
misspelt Sources/Kinema/Export/KeyframeAnimation+CoreAnimation.swift 's/animation.keyTimes = /animation.keyTime = /' \
    "CAKeyframeAnimation property"
misspelt Sources/Kinema/Animation/SwiftUI/SpringCustomAnimation.swift 's/get { state\[/get { states[/' \
    "AnimationContext property"
# The Swift source `kinema keyframes --format swift` writes, an app's file that does not import Kinema:
# a keyframe animation, a retargetable spring's additive builders and a scene's per-body groups.
kinema=$(swift build --show-bin-path)/kinema
"$kinema" keyframes --easing bounce-out --format swift > "$work/Bounce.swift"
"$kinema" keyframes --spring --response 0.5 --bounce 0.3 --retargetable --format swift > "$work/Retarget.swift"
"$kinema" keyframes --scene examples/ball-on-spring-2d.json --duration 1 --canvas 400x300 --format swift \
    > "$work/Scene.swift" 2>/dev/null
cat > "$work/Use.swift" <<'SWIFT'
import QuartzCore
let played: [CAKeyframeAnimation] = [
    makeAnimation(), makeRetargetAnimation(keyPath: "position.x", by: 120, beginTime: 2),
    makeReleaseAnimation(keyPath: "position.x", velocity: -800),
]
let ball: CAAnimationGroup = makeBallAnimation()
SWIFT
for file in Bounce Retarget Scene; do grep -q "canImport(QuartzCore)" "$work/$file.swift"; done
swiftc -typecheck -I "$work" "$work/Bounce.swift" "$work/Retarget.swift" "$work/Scene.swift" "$work/Use.swift"
# The SwiftUI source `--format swiftui` writes (keyframe tracks of LinearKeyframes along UnitCurve
# beziers), 1-D and on a canvas, against a SwiftUI stand-in; a misspelt keyframe type must fail it.
ui=$work/ui
mkdir "$ui"
"$kinema" keyframes --easing 'damped-cosine(5,30)' --format swiftui --swiftui-name jelly > "$ui/Jelly.swift"
"$kinema" keyframes --scene examples/two-balls-1d.json --duration 2 --format swiftui --swiftui-name balls > "$ui/Balls.swift"
"$kinema" keyframes --scene examples/three-balls-box-2d.json --duration 3 --canvas 800x600 --format swiftui \
    --swiftui-name box > "$ui/Box.swift" 2>/dev/null
cat > "$ui/Use.swift" <<'SWIFT'
import SwiftUI
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
func keyframes() {
    let jelly: some Keyframes<JellyValues> = jellyKeyframes(), balls: some Keyframes<BallsValues> = ballsKeyframes()
    let box: some Keyframes<BoxValues> = boxKeyframes()
    let start: (Double, CGPoint) = (JellyValues().value, BoxValues().red)
    _ = (jelly, balls, box, start)
}
SWIFT
for file in Jelly Balls Box; do grep -q "canImport(SwiftUI)" "$ui/$file.swift"; done
swiftc -typecheck -I "$work" "$ui"/*.swift
sed 's/LinearKeyframe(/LinearKeyFrame(/' "$ui/Box.swift" > "$ui/Box.swift.misspelt" && mv "$ui/Box.swift.misspelt" "$ui/Box.swift"
if swiftc -typecheck -I "$work" "$ui"/*.swift 2>/dev/null; then
    echo "check-apple-sources: a misspelt SwiftUI keyframe type-checked: the check sees nothing" >&2
    exit 1
fi
echo "ok   Apple sources: Kinema type-checks with CoreGraphics, QuartzCore and SwiftUI stand-ins (CAKeyframeAnimation builder, additive retargets, CG conformances, custom animations); so do the Swift exports, and the SwiftUI ones against a SwiftUI stand-in"
