import Foundation
import Kinema
import KinemaTestSupport
import Testing

/// The code in the DocC articles, run as written and checked against closed forms, so the articles
/// cannot drift from the library.
@Suite struct DocumentationExamplesTests {
    @Test func overviewBakesASwiftUISpringWithinTheTolerance() throws {
        let spring = try DampedSpring(duration: 0.5, bounce: 0.3)  // SwiftUI's dialect
        let source = try MotionSource(spring: spring, from: 0, to: 1)  // its closed form, until it settles
        let fit = try KeyframeBaker.bake(source, tolerance: 0.001)
        let css = KeyframeExport.css(fit)  // @keyframes, a cubic-bezier() a segment
        #expect(css.contains("@keyframes"))

        // Against the analytic spring: the fit's 0.001 of the range of values (overshoot
        // included) plus the 0.001 the source takes out to end on 1; it ends on 1 exactly.
        let motion = try spring.motion(from: 0, to: 1), d = source.duration
        let range = grid(0, d, count: 3001).map(motion.position(at:)).max()!
        for t in grid(0, d, count: 3001) {
            #expect(abs(fit.animation.scalarValue(at: t / d) - motion.position(at: t)) <= 0.001 * range + 0.001)
        }
        #expect(fit.animation.scalarValue(at: 1) == 1 && d == spring.settlingDuration)
    }

    @Test func springsInEveryDialectRoundTripsAsTheArticleStates() throws {
        let swiftUI = try DampedSpring(duration: 0.5, bounce: 0.3)
        let stiffness = swiftUI.stiffness  // 157.91…  (4π²/0.5²)
        let damping = swiftUI.damping  // 17.59…
        let rebound = try DampedSpring(tension: swiftUI.tension, friction: swiftUI.friction)
        // rebound equals swiftUI within rounding: the 64 ordered pairs of dialects round-trip within 1e-12
        #expect(abs(stiffness - 4 * .pi * .pi / 0.25) <= 1e-12 * stiffness)
        #expect(abs(damping - 2 * 0.7 * 2 * .pi / 0.5) <= 1e-12 * damping && String(damping).hasPrefix("17.59"))
        #expect(abs(rebound.stiffness - stiffness) <= 1e-12 * stiffness)
        #expect(abs(rebound.damping - damping) <= 1e-12 * damping && rebound.mass == swiftUI.mass)
    }

    @Test func bakingKeyframesGivesTheFiguresTheArticleQuotes() throws {
        let source = try MotionSource(easing: try Easing(name: "damped-cosine(5,30)"), duration: 1)
        let fit = try KeyframeBaker.bake(source, tolerance: 0.001)
        let count = fit.keyframeCount  // 11
        let error = fit.maxError  // 9.0e-4, measured against the closed form
        let css = KeyframeExport.css(fit)  // @keyframes with one cubic-bezier() per segment
        #expect(count == 11 && error <= 0.001 && (error * 1e4).rounded() == 9)
        #expect(css.contains("@keyframes") && css.components(separatedBy: "cubic-bezier(").count - 1 == count - 1)
        // Against the closed form itself, 1 − e^(−5t)·cos(30t), independently of the baker.
        for t in grid(0, 1, count: 4001) {
            #expect(abs(fit.animation.scalarValue(at: t) - (1 - exp(-5 * t) * cos(30 * t))) <= 0.001 * 1.9)
        }
    }

    /// The article's rounding and mapping: the mapped fit plays 20 + 300 × the closed form, its
    /// rounded JSON within its stated error, and `.none` prints every digit.
    @Test func bakingKeyframesMapsAndRoundsAsTheArticleSays() throws {
        let source = try MotionSource(easing: try Easing(name: "damped-cosine(5,30)"), duration: 1)
        let fit = try KeyframeBaker.bake(source, tolerance: 0.001)
        var onScreen = try fit.mapped(try ValueMapping(from: 20, to: 320))  // 0 → 20 pt, 1 → 320 pt
        let rotation = try fit.mapped(.degrees)  // radians → degrees
        onScreen.rounding = .none  // 17 digits again
        #expect(onScreen.precision == .full && onScreen.exportedMaxError == onScreen.maxError)
        #expect(abs(onScreen.maxError - 300 * fit.maxError) <= 1e-12 * 300)
        #expect(abs(rotation.animation.scalarValue(at: 1) - fit.animation.scalarValue(at: 1) * 180 / .pi) <= 1e-12)
        for t in grid(0, 1, count: 2001) {
            let exact = 20 + 300 * (1 - exp(-5 * t) * cos(30 * t))
            #expect(abs(onScreen.animation.scalarValue(at: t) - exact) <= onScreen.maxError * (1 + 1e-9))
        }
        // Rounded, it stays within the bound: 300 × the tolerance × the travel.
        var rounded = onScreen
        rounded.rounding = .toBound
        #expect(rounded.precision != .full && rounded.exportedMaxError <= 300 * 0.001 * 1.60063)
    }

    /// Every Swift snippet of every DocC article, of both modules, is code a test compiles and runs
    /// (comments, imports and layout aside): an article cannot show code that does not build.
    @Test func everyArticlesSnippetsAreCompiledByATest() throws {
        let root = packageRoot()
        func files(_ folder: String, _ suffix: String) throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
                .filter { $0.hasSuffix(suffix) }.sorted().map { "\(folder)/\($0)" }
        }
        let articles =
            try files("Sources/Kinema/Kinema.docc", ".md")
            + files("Sources/KinemaReference/KinemaReference.docc", ".md")
        let tests =
            try files("Tests/KinemaDocumentationTests", ".swift") + files("Tests/KinemaReferenceTests", ".swift")
            + files("Tests/AppleStandIns/Snippets", ".swift")  // SwiftUI's: scripts/check-apple-sources.sh
        let compiled = try tests.map {
            Self.code(try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8))
        }.joined()
        var count = 0
        for article in articles {
            for snippet in try documentedSnippets(in: article) where !Self.code(snippet).isEmpty {
                count += 1
                #expect(compiled.contains(Self.code(snippet)), "\(article): not compiled by a test:\n\(snippet)")
            }
        }
        #expect(count == 15)
    }

    /// Swift text without its comments, imports and whitespace.
    static func code(_ text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
            let code = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line[...]
            return code.trimmingCharacters(in: .whitespaces).hasPrefix("import ") ? "" : code
        }
        return LibraryExamplesTests.normalized(lines.joined())
    }

    @Test func choosingAnIntegratorRunsItsExamplesToTheirAccuracy() throws {
        let spring = try DampedSpring(stiffness: 1000, dampingRatio: 0.1)
        let scene = try PhysicsScene.spring(spring)
        let simulation = Simulation(scene: scene)
        let accurate = try simulation.run(method: .dop853(tolerance: 1e-12), duration: 2, sampleRate: 1000)
        let cheap = try simulation.run(method: .rk4(timeStep: 1.0 / 600), duration: 2)
        let multistep = try simulation.run(method: .adams(timeStep: 1.0 / 180, order: 10), duration: 2)
        let motion = try spring.motion()
        let multistepError = (0..<multistep.count).map {
            abs(multistep.position(atSample: $0) - motion.position(at: multistep.times[$0]))
        }.max()!
        #expect(multistepError <= 5.0e-10 * 1.01)  // the step counts: AdaptiveIntegratorTests, AdamsTests
        let accurateError = (0..<accurate.count).map {
            abs(accurate.position(atSample: $0) - motion.position(at: accurate.times[$0]))
        }.max()!
        let cheapError = (0..<cheap.count).map {
            abs(cheap.position(atSample: $0) - motion.position(at: cheap.times[$0]))
        }.max()!
        #expect(accurateError <= 1e-10)
        // RK4's global error ~ C·(ωh)⁴; at ωh = 0.053 it is of order 1e-5 of the travel.
        #expect(cheapError <= 1e-4)
    }

    @Test func theBounceIdentityHoldsAsTheArticleStatesIt() throws {
        let ball = try PhysicsScene.drop(height: 1, gravity: 121.0 / 8, restitution: 0.5)
        let trajectory = try Simulation(scene: ball).run(
            method: .dop853(tolerance: 1e-13), duration: 1, sampleRate: 1000)
        let bounce = PennerEasing(.bounce, .out)
        for i in 0..<trajectory.count {
            #expect(abs((1 - trajectory.position(atSample: i)) - bounce.value(at: trajectory.times[i])) <= 1e-12)
        }
        let impacts = trajectory.events.map(\.time).prefix(3)
        for (time, expected) in zip(impacts, [4.0 / 11, 8.0 / 11, 10.0 / 11]) {
            #expect(abs(time - expected) <= 1e-12)
        }
    }

    @Test func animatingInAnAppRunsAsWritten() throws {
        let spring = try DampedSpring(duration: 0.5, bounce: 0.3)  // or .smooth, .snappy, .bouncy
        let x = spring.value(target: 100.0, initialVelocity: 250.0, time: 0.2)
        let v = spring.velocity(target: 100.0, initialVelocity: 250.0, time: 0.2)
        var position = 0.0, velocity = 0.0
        spring.update(value: &position, velocity: &velocity, target: 100.0, deltaTime: 1.0 / 120)
        let motion = try spring.motion(from: 0, to: 100, initialVelocity: 250)
        #expect(abs(x - motion.position(at: 0.2)) <= 1e-10 && abs(v - motion.velocity(at: 0.2)) <= 1e-9)
        let still = try spring.motion(from: 0, to: 100)
        #expect(
            abs(position - still.position(at: 1.0 / 120)) <= 1e-12
                && abs(velocity - still.velocity(at: 1.0 / 120)) <= 1e-10)

        var card = SpringAnimator(spring: .bouncy, value: SIMD2(0.0, 0.0), target: SIMD2(0.0, 0.0))
        card.restart(from: SIMD2(140, -30), velocity: SIMD2(900, 250))  // the finger lifts here
        card.advance(by: 1.0 / 120)
        let alongX = try DampedSpring.bouncy.motion(from: 140, to: 0, initialVelocity: 900)
        #expect(abs(card.value.x - alongX.position(at: 1.0 / 120)) <= 1e-10)
    }
}
