import Foundation
import Testing

@testable import Kinema
@testable import KinemaCLI

/// `kinema keyframes --retargetable` and `--reduced-motion`.
struct RetargetableCommandTests {
    static let spring = ["keyframes", "--spring", "--response", "0.5", "--bounce", "0.3"]

    /// The JSON holds the spring the dialect names and its three responses, each within its
    /// stated error of the closed form at 2,001 times.
    @Test func theJSONHoldsTheResponsesWithinTheirErrors() throws {
        let json = try CLI.json(Self.spring + ["--retargetable"])
        #expect(json["format"] as? String == "kinema-retargetable-spring")
        let spring = try DampedSpring(response: 0.5, dampingRatio: 0.7)
        let fields = json["spring"] as! [String: Double]
        #expect(fields["stiffness"] == spring.stiffness && fields["damping"] == spring.damping)
        let step = try spring.motion(from: 0, to: 1), impulse = try spring.motion(from: 0, to: 0, initialVelocity: 1)
        for (name, closed) in [("step", step), ("impulse", impulse)] {
            let response = json[name] as! [String: Any]
            let functions = try (response["timingFunctions"] as! [[Double]]).map {
                try CubicBezierTimingFunction(x1: $0[0], y1: $0[1], x2: $0[2], y2: $0[3])
            }
            let animation = try KeyframeAnimation(
                values: (response["values"] as! [Double]).map { [$0] }, keyTimes: response["keyTimes"] as? [Double],
                timingFunctions: functions, duration: response["duration"] as! Double)
            let stated = response["maxError"] as! Double
            #expect(stated <= 0.001 * (name == "step" ? 1 : 0.2))
            for i in 0...2_000 {
                let u = Double(i) / 2_000
                let error = abs(animation.scalarValue(at: u) - closed.position(at: u * animation.duration))
                #expect(error <= stated, "\(name) at \(u)")
            }
        }
    }

    /// Numbers are rounded to each response's bound (the test above plays the rounded ones within
    /// their stated errors); `--full-precision` prints every digit and states the fit's errors.
    @Test func numbersAreRoundedUnlessFullPrecisionIsAsked() throws {
        let rounded = try CLI.run(Self.spring + ["--retargetable"]).stdout
        let full = try CLI.run(Self.spring + ["--retargetable", "--full-precision"]).stdout
        #expect(rounded.utf8.count * 10 <= full.utf8.count * 7, "\(rounded.utf8.count) vs \(full.utf8.count) bytes")
        let baked = try RetargetableSpring(spring: DampedSpring(response: 0.5, dampingRatio: 0.7))
        let step = try #require(
            CLI.json(Self.spring + ["--retargetable", "--full-precision"])["step"] as? [String: Any])
        // Foundation's JSON reader on Linux may round the last digit.
        #expect(abs(try #require(step["maxError"] as? Double) - baked.stepError) <= 1e-15 * baked.stepError)
        let values = try #require(CLI.json(Self.spring + ["--retargetable"])["step"] as? [String: Any])["values"]
        let digits = try #require(values as? [Double]).map { "\($0)".filter(\.isNumber).count }
        #expect(digits.max()! <= 8, "\(String(describing: values))")
    }

    /// The ES module is the player, unchanged, followed by the responses; the Swift source holds
    /// additive builders (type-checked by scripts/check-apple-sources.sh).
    @Test func theModuleAndTheSwiftSource() throws {
        let module = try CLI.run(Self.spring + ["--retargetable", "--format", "js"])
        #expect(module.status == 0, "\(module.stderr)")
        #expect(module.stdout.hasPrefix(KeyframesCommand.springModule))
        #expect(
            module.stdout.contains("export class RetargetableSpring")
                && module.stdout.contains("export const responses = {"))
        let swift = try CLI.run(Self.spring + ["--retargetable", "--format", "swift"])
        #expect(
            swift.stdout.contains("animation.isAdditive = true") && swift.stdout.contains("func makeReleaseAnimation("))
    }

    @Test(arguments: [
        (["--to", "3"], "'--to' does not apply to '--retargetable'"),
        (["--duration", "1"], "'--duration' does not apply to '--retargetable'"),
        (["--format", "css"], "'--format' must be json, js or swift with '--retargetable'"),
        (["--strategy", "uniform"], "'--strategy' must be adaptive with '--retargetable'"),
        (["--damping-ratio", "0", "--response", "1", "--bounce", "0"], "'--bounce'")
    ])
    func misuseIsRefused(_ extra: [String], _ message: String) throws {
        let arguments =
            extra.contains("--damping-ratio")
            ? ["keyframes", "--spring", "--response", "1", "--damping-ratio", "0", "--retargetable"]
            : Self.spring + ["--retargetable"] + extra
        let result = try CLI.run(arguments)
        #expect(result.status != 0 && result.stdout.isEmpty)
        let expected = extra.contains("--damping-ratio") ? "damping must be > 0 for a retargetable spring" : message
        #expect(result.stderr.contains(expected), "\(result.stderr)")
    }

    @Test func anEasingOrAJSFormatAloneIsRefused() throws {
        let easing = try CLI.run(["keyframes", "--easing", "bounce-out", "--retargetable"])
        #expect(easing.status != 0 && easing.stderr.contains("'--retargetable' bakes a spring"))
        let js = try CLI.run(["keyframes", "--easing", "bounce-out", "--format", "js"])
        #expect(js.status != 0 && js.stderr.contains("'--format' must be given with '--retargetable'"))
    }

    /// CSS keeps the motion and adds its reduced form under the media query, with the same
    /// animation names; the other formats are the reduced form alone: its values never go past
    /// the end (the bounce easing's do not, either; the spring's overshoot is gone).
    @Test func reducedMotion() throws {
        let css = try CLI.run(Self.spring + ["--reduced-motion", "--format", "css"])
        #expect(css.status == 0, "\(css.stderr)")
        let parts = css.stdout.components(separatedBy: "@media (prefers-reduced-motion: reduce) {")
        #expect(parts.count == 2)
        #expect(
            parts[0].contains("@keyframes kinema-position-x {") && parts[1].contains("@keyframes kinema-position-x {"))
        #expect(!parts[1].contains("@property"))
        let full = try CLI.json(Self.spring), reduced = try CLI.json(Self.spring + ["--reduced-motion"])
        let end = (full["values"] as! [Double]).last!
        #expect((full["values"] as! [Double]).max()! > end + 0.01)
        #expect((reduced["values"] as! [Double]).max()! <= end && (reduced["values"] as! [Double]).last == end)
        #expect(reduced["duration"] as? Double == full["duration"] as? Double)
    }
}
