import Foundation
import RealModule
import Testing

@_spi(Engine) @testable import Kinema

/// The jelly spring, written out here.
private func seed(_ t: Double) -> Double { 1 - exp(-5 * t) * cos(30 * t) }

/// Max |animation − f| over [a, b] (default: the whole duration) on a fine grid (independent of
/// the baker's own measure).
private func gridError(
    _ animation: KeyframeAnimation, _ f: (Double) -> Double, points: Int = 20_001, from a: Double = 0,
    to b: Double? = nil
) -> Double {
    let b = b ?? animation.duration
    var worst = 0.0
    for i in 0..<points {
        let t = a + (b - a) * Double(i) / Double(points - 1)
        worst = max(worst, abs(animation.value(at: t / animation.duration)[0] - f(t)))
    }
    return worst
}

struct KeyframeBakerTests {
    @Test func jellySpringInElevenKeyframesWithinOneThousandth() throws {
        let fit = try KeyframeBaker.bake(
            MotionSource(easing: .dampedCosine(.jelly)), strategy: .adaptive, tolerance: 1e-3)
        #expect(fit.keyframeCount == 11)  // one per extremum (9) plus the ends: the minimum
        #expect(fit.maxError <= 1e-3)
        #expect(gridError(fit.animation, seed) <= 1e-3)
        for f in fit.animation.timingFunctions {
            for c in [f.x1, f.y1, f.x2, f.y2] { #expect(c >= 0 && c <= 1) }
        }
    }

    @Test func uniformSixtyFramesIncludeTheEnd() throws {
        let fit = try KeyframeBaker.bake(
            MotionSource(easing: .dampedCosine(.jelly)), strategy: .uniform, framesPerSecond: 60)
        #expect(fit.keyframeCount == 61)
        #expect(fit.animation.keyTimes.last == 1)
        #expect(abs(fit.maxError - 2.6e-2) <= 0.1e-2, "\(fit.maxError)")
        #expect(abs(gridError(fit.animation, seed) - fit.maxError) <= 1e-4)
        // 48 keyframes (47 segments, end included): the seed's frame count done right.
        let fortyEight = try KeyframeBaker.bake(
            MotionSource(easing: .dampedCosine(.jelly)), strategy: .uniform, framesPerSecond: 47)
        #expect(fortyEight.keyframeCount == 48)
        #expect(abs(fortyEight.maxError - 3.9e-2) <= 0.1e-2, "\(fortyEight.maxError)")
    }

    /// The seed's loop: n frames at t = i/n (no end frame) and no keyTimes, so Core Animation
    /// spreads them evenly over the whole duration.
    @Test func theSeedsLoopIsWorse() throws {
        let n = 48
        let animation = try KeyframeAnimation(values: (0..<n).map { [seed(Double($0) / Double(n))] })
        let error = gridError(animation, seed)
        #expect(abs(error - 5.2e-2) <= 0.1e-2, "\(error)")
        let done = try KeyframeBaker.bake(
            MotionSource(easing: .dampedCosine(.jelly)), strategy: .uniform, framesPerSecond: 47)
        #expect(done.maxError < error)
    }

    @Test func pennersBounceIsEightKeyframesFromTheClosedFormAndFromADrop() throws {
        let closed = try KeyframeBaker.bake(MotionSource(easing: .penner(PennerEasing(.bounce, .out))), tolerance: 1e-3)
        #expect(closed.keyframeCount == 8 && closed.maxError <= 1e-9)
        #expect(gridError(closed.animation, { PennerEasing.bounceOut($0) }) <= 1e-9)
        let trajectory = try Simulation(scene: PhysicsScene.drop(height: 1, gravity: 121.0 / 8, restitution: 0.5))
            .run(method: .dopri5(tolerance: 1e-12), duration: 1, sampleRate: 2_000)
        let simulated = try KeyframeBaker.bake(MotionSource(trajectory: trajectory), tolerance: 1e-3)
        #expect(simulated.keyframeCount == 8 && simulated.maxError <= 1e-9)
        #expect(gridError(simulated.animation, { 1 - PennerEasing.bounceOut($0) }) <= 1e-9)
        let knots = simulated.animation.keyTimes
        let expected: [Double] = [0, 4.0 / 11, 6.0 / 11, 8.0 / 11, 9.0 / 11, 10.0 / 11, 21.0 / 22, 1]
        for (found, want) in zip(knots, expected) {
            #expect(abs(found - want) <= 1e-9)
        }
    }

    @Test(arguments: [1e-4, 1e-5], [(170.0, 10.0), (100.0, 20.0), (50.0, 40.0)])
    func adaptiveMeetsTightTolerancesInEveryRegime(tolerance: Double, spring: (k: Double, c: Double)) throws {
        let s = try DampedSpring(stiffness: spring.k, damping: spring.c)
        let motion = try s.motion(from: 0, to: 1, initialVelocity: 2)
        let source = try MotionSource(
            duration: 1.5, value: { motion.position(at: $0) },
            velocity: { t, _ in motion.velocity(at: t) })
        let fit = try KeyframeBaker.bake(source, strategy: .adaptive, tolerance: tolerance)
        #expect(fit.maxError <= tolerance, "\(fit.keyframeCount) keyframes, error \(fit.maxError)")
        #expect(gridError(fit.animation, { motion.position(at: $0) }) <= tolerance)
    }

    /// A critically damped spring settles within 0.5 s; after that RK4's rounding wiggles about the
    /// target, and every wiggle is an extremum of the sampled trajectory. Ripples below half the
    /// tolerance are not knots, so the bake stays a handful of keyframes.
    @Test func roundingRipplesInASettledTailAreNotKnots() throws {
        let spring = try DampedSpring(stiffness: 500, damping: 2 * 500.0.squareRoot())
        let trajectory = try Simulation(scene: PhysicsScene.spring(spring)).run(
            method: .rk4(timeStep: 1.0 / 600), duration: 2)
        let source = try MotionSource(trajectory: trajectory)
        #expect((source.extrema?.count ?? 0) >= 10, "\(source.extrema ?? [])")
        let fit = try KeyframeBaker.bake(source, tolerance: 1e-3)
        #expect(fit.keyframeCount <= 6 && fit.maxError <= 1e-3, "\(fit.keyframeCount) keyframes, \(fit.maxError)")
        let exact = try spring.motion(from: 0, to: 1, initialVelocity: 0)
        #expect(gridError(fit.animation, { exact.position(at: $0) }) <= 1e-3 + 1e-6)
    }

    /// Springs of a sweep whose bakes come closest to the bound (the tolerance is a fraction of
    /// the travel |x(2) − x(0)|): measured on a 20,001-point grid in time (the animation's own
    /// evaluation, not the baker's), they stay within it, and the baker's figure matches the grid's.
    @Test(arguments: [(18, 4), (16, 19), (17, 19)])
    func adaptiveBakesStayWithinTheTolerance(_ grid: (stiffness: Int, dampingRatio: Int)) throws {
        let spring = try DampedSpring(
            stiffness: 100 * Double.pow(10, Double(grid.stiffness) / 199),
            dampingRatio: 0.1 * Double.pow(10, Double(grid.dampingRatio) / 99))
        let trajectory = try Simulation(scene: PhysicsScene.spring(spring)).run(
            method: .rk4(timeStep: 1.0 / 600), duration: 2)
        let source = try MotionSource(trajectory: trajectory)
        let bound = 1e-3 * abs(source.value(at: 2) - source.value(at: 0))
        let fit = try KeyframeBaker.bake(source, tolerance: 1e-3)
        let measured = gridError(fit.animation, source.value)
        #expect(fit.maxError <= bound, "\(fit.maxError) > \(bound)")
        #expect(measured <= bound, "\(measured) > \(bound)")
        #expect(abs(measured - fit.maxError) <= 1e-3 * bound, "grid \(measured), baker \(fit.maxError)")
    }

    /// Motions whose bakes have every kind of segment: easings with smooth, kinked and vertical
    /// ends, simulated springs of three regimes, and drops whose impacts fall inside the uniform
    /// strategy's segments (a kink in the error).
    static func variedBakes() throws -> [(source: MotionSource, fit: KeyframeFit)] {
        var sources = try ["ease-in-out", "bounce-out", "elastic-out", "circ-in", "back-in-out", "poly-in(0.5)"]
            .map { try MotionSource(easing: Easing(name: $0)) }
        sources.append(try MotionSource(easing: .dampedCosine(.jelly)))
        for (k, zeta) in [(170.0, 0.1), (800.0, 0.8), (300.0, 1.5)] {
            let spring = try DampedSpring(stiffness: k, dampingRatio: zeta)
            sources.append(
                try MotionSource(
                    trajectory: Simulation(scene: PhysicsScene.spring(spring)).run(
                        method: .rk4(timeStep: 1.0 / 600), duration: 2)))
        }
        let drop = try Simulation(scene: PhysicsScene.drop(height: 1, gravity: 9.81, restitution: 0.6))
            .run(method: .dopri5(tolerance: 1e-9), duration: 2)
        sources.append(try MotionSource(trajectory: drop))
        return try sources.flatMap { source in
            try [1e-2, 1e-3, 1e-4].map { (source, try KeyframeBaker.bake(source, tolerance: $0)) }
                + [(source, try KeyframeBaker.bake(source, strategy: .uniform, framesPerSecond: 24))]
        }
    }

    /// Segment i's error on a 4,001-point grid (the animation's own evaluation).
    private static func segmentGridError(_ fit: KeyframeFit, _ source: MotionSource, segment i: Int) -> Double {
        let animation = fit.animation, d = animation.duration
        return gridError(
            animation, source.value, points: 4_001, from: animation.keyTimes[i] * d, to: animation.keyTimes[i + 1] * d)
    }

    /// The ceiling the samples put on a segment's error (what lets the baker leave a segment
    /// unrefined) is above its max on a 4,001-point grid, for every segment of the varied bakes.
    @Test func sampledCeilingsBoundEachSegmentsError() throws {
        for (source, fit) in try Self.variedBakes() {
            let animation = fit.animation, d = animation.duration
            for i in animation.timingFunctions.indices where animation.keyTimes[i + 1] > animation.keyTimes[i] {
                let ceiling = KeyframeBaker.segmentMaxError(
                    source, animation.keyTimes[i] * d, animation.keyTimes[i + 1] * d,
                    from: animation.values[i][0], to: animation.values[i + 1][0], animation.timingFunctions[i],
                    refiningAbove: .infinity
                ).ceiling
                let grid = Self.segmentGridError(fit, source, segment: i)
                // 1e-15: the two evaluations round differently (the values are of order 1).
                #expect(
                    ceiling >= grid - 1e-15, "segment \(i) of \(animation.keyTimes.count - 1): \(ceiling) < \(grid)")
            }
        }
    }

    /// The baker's max error, although it refines only the segments that can hold the max, is
    /// not below the largest error on a 4,001-point grid per segment (1e-6: the refinement's own
    /// resolution, 1e-7 relative). Left unrefined, a peak reads up to a few percent low.
    @Test func bakedMaxErrorIsNotBelowAFineGrids() throws {
        for (source, fit) in try Self.variedBakes() {
            let grid =
                fit.animation.timingFunctions.indices.map {
                    Self.segmentGridError(fit, source, segment: $0)
                }.max() ?? 0
            #expect(fit.maxError >= grid * (1 - 1e-6) - 1e-15, "baker \(fit.maxError), grid \(grid)")
        }
    }

    /// A motion that is itself a cubic bezier is recovered: from the Hermite start (1/3, 0, 2/3, 1)
    /// the fitter reaches CSS's ease-in-out (0.42, 0, 0.58, 1).
    @Test func fitterRecoversAnExactBezier() throws {
        let easeInOut = CubicBezierTimingFunction.easeInEaseOut
        let source = try MotionSource(easing: .timingFunction(easeInOut))
        var fitter = SegmentFitter()
        fitter.load(source, 0, 1)
        let start = KeyframeBaker.hermite(source, 0, 1)
        #expect(fitter.error(of: start) > 1e-2)
        let fit = fitter.fit(from: start, goal: 1e-9)
        #expect(fit.error <= 1e-9, "\(fit)")
        #expect(abs(fit.function.x1 - 0.42) <= 1e-6 && abs(fit.function.x2 - 0.58) <= 1e-6, "\(fit.function)")
        #expect(abs(fit.function.y1) <= 1e-6 && abs(fit.function.y2 - 1) <= 1e-6, "\(fit.function)")
    }

    /// The fitter's Newton solves for s with x(s) = x_j, run for all sixteen lanes in step,
    /// land every lane on its root: within 1e-13 in x, or, where Newton stalls (a flat end), on
    /// the bracketed solve's root, over a grid of x-controls and from guesses near and far.
    @Test func fitterParametersSolveEveryAbscissa() {
        var parameters = [Double](repeating: 0, count: SegmentFitter.points)
        for x1 in stride(from: 0.0, through: 1.0, by: 0.125) {
            for x2 in stride(from: 0.0, through: 1.0, by: 0.125) {
                for guess in [-1.0, 0.0, 0.5, 1.0] {  // -1: each abscissa's own x
                    for j in parameters.indices { parameters[j] = guess < 0 ? Double(j + 1) / 16 : guess }
                    parameters.withUnsafeMutableBufferPointer { SegmentFitter.solveParameters($0, x1, x2) }
                    let curve = CubicBezierTimingFunction(uncheckedX1: x1, y1: 0, x2: x2, y2: 1)
                    for (j, s) in parameters.enumerated() {
                        let x = Double(j + 1) / 16
                        let miss = abs(CubicBezierTimingFunction.cubic(x1, x2, at: s) - x)
                        #expect(
                            miss <= 1e-13 || s == curve.parameter(at: x),
                            "x1 \(x1) x2 \(x2) guess \(guess) x \(x): off by \(miss)")
                    }
                }
            }
        }
    }

    /// 2s³ − 3s² + s (values 0, 0; slopes 1, 1; h = 1) turns where 6s² − 6s + 1 = 0: s = 1/2 ∓ √3/6.
    @Test func trajectoryExtremaAreTheHermiteSlopeRoots() {
        var roots: [Double] = []
        Hermite.appendSlopeRoots(0, 1, 0, 1, from: 10, h: 1, to: &roots)
        #expect(roots.count == 2)
        #expect(
            abs(roots[0] - (10.5 - 3.0.squareRoot() / 6)) <= 1e-14
                && abs(roots[1] - (10.5 + 3.0.squareRoot() / 6)) <= 1e-14)
        roots = []
        Hermite.appendSlopeRoots(0, 1, 1, 1, from: 0, h: 1, to: &roots)  // a straight line: no extremum
        #expect(roots.isEmpty)
    }

    @Test func twoDimensionalSceneBakesOneTrackPerCoordinate() throws {
        let ball = try PhysicsBody(name: "ball", position: SIMD3(1, 0.5, 0), velocity: SIMD3(0, 2, 0))
        let scene = try PhysicsScene(
            dimensions: 2, bodies: [ball],
            springs: [SpringForce(.anchor(body: 0, at: SIMD3(0, 0, 0)), stiffness: 60, damping: 3)])
        let trajectory = try Simulation(scene: scene).run(
            method: .dopri5(tolerance: 1e-11), duration: 2, sampleRate: 2_000)
        let exact = try Simulation(scene: scene).run(method: .exact, duration: 2, sampleRate: 500)
        for coordinate in 0..<2 {
            let fit = try KeyframeBaker.bake(
                MotionSource(trajectory: trajectory, coordinate: coordinate), tolerance: 1e-4)
            #expect(fit.maxError <= 1e-4 * 1.5)  // travel: |x(2) − x(0)| ≤ 1.5
            for i in 0..<exact.count {
                let t = exact.times[i]
                #expect(
                    abs(fit.animation.value(at: t / 2)[0] - exact.position(atSample: i, coordinate: coordinate)) <= 2e-4
                )
            }
        }
    }
}

/// A 2-D ball thrown onto a floor with friction: both coordinates' velocities jump at each impact.
struct MultiDimensionalImpactKeyframeTests {
    static let (height, speed, restitution, friction, g) = (1.0, 1.5, 0.6, 0.1, 9.81)

    /// The closed form: parabolas between impacts; at each, v_y → e·|v_y| and v_x loses μ(1 + e)|v_y| (not below 0).
    static func exact(at t: Double) -> (x: Double, y: Double) {
        var (start, x, y, vx, vy) = (0.0, 0.0, height, speed, 0.0)
        while true {
            let landing = (vy + (vy * vy + 2 * g * y).squareRoot()) / g  // y + vy·s − g s²/2 = 0
            if start + landing >= t || landing <= 1e-9 {
                let s = t - start
                return (x + vx * s, y + vy * s - 0.5 * g * s * s)
            }
            let speedIn = g * landing - vy
            x += vx * landing
            start += landing
            y = 0
            vx = max(0, vx - friction * (1 + restitution) * speedIn)
            vy = restitution * speedIn
        }
    }

    @Test func eachCoordinateBakesThroughTheImpacts() throws {
        let ball = try PhysicsBody(name: "ball", position: SIMD3(0, Self.height, 0), velocity: SIMD3(Self.speed, 0, 0))
        let scene = try PhysicsScene(
            dimensions: 2, bodies: [ball], gravity: SIMD3(0, -Self.g, 0),
            planes: [Plane.floor(dimensions: 2, restitution: Self.restitution, friction: Self.friction)],
            restVelocity: 0.5)
        let trajectory = try Simulation(scene: scene).run(
            method: .dopri5(tolerance: 1e-11), duration: 1.5, sampleRate: 2_000)
        #expect(trajectory.events.count >= 3)
        for coordinate in 0..<2 {
            let source = try MotionSource(trajectory: trajectory, coordinate: coordinate)
            #expect(source.breakpoints.count == trajectory.events.count, "each impact is a knot of both coordinates")
            let fit = try KeyframeBaker.bake(source, tolerance: 1e-4)
            var worst = 0.0
            for i in 0...3000 {
                let t = 1.5 * Double(i) / 3000
                let exact = Self.exact(at: t)
                worst = max(worst, abs(fit.animation.value(at: t / 1.5)[0] - (coordinate == 0 ? exact.x : exact.y)))
            }
            #expect(worst <= 2e-4, "coordinate \(coordinate): \(worst)")
        }
    }
}

struct KeyframeEvaluatorTests {
    @Test func discreteTakesValuesPlusOneKeyTimes() throws {
        let a = try KeyframeAnimation(values: [[1], [2], [3]], keyTimes: [0, 0.2, 0.7, 1], calculationMode: .discrete)
        #expect(a.value(at: 0)[0] == 1 && a.value(at: 0.19)[0] == 1 && a.value(at: 0.2)[0] == 2)
        #expect(a.value(at: 0.69)[0] == 2 && a.value(at: 0.7)[0] == 3 && a.value(at: 1)[0] == 3)
        #expect(throws: KinemaError.self) {
            try KeyframeAnimation(values: [[1], [2], [3]], keyTimes: [0, 0.5, 1], calculationMode: .discrete)
        }
    }

    @Test func pacedSpacesByDistance() throws {
        let a = try KeyframeAnimation(values: [[0, 0], [3, 4], [3, 5]], calculationMode: .paced)
        #expect(a.keyTimes == [0, 5.0 / 6, 1])
        #expect(abs(a.value(at: 0.5)[0] - 1.8) <= 1e-12 && abs(a.value(at: 0.5)[1] - 2.4) <= 1e-12)
    }

    @Test func linearUsesEachSegmentsTimingFunction() throws {
        let a = try KeyframeAnimation(
            values: [[0], [10], [20]], keyTimes: [0, 0.5, 1], timingFunctions: [.easeIn, .linear])
        #expect(abs(a.value(at: 0.25)[0] - 10 * CubicBezierTimingFunction.easeIn.value(at: 0.5)) <= 1e-12)
        #expect(abs(a.value(at: 0.75)[0] - 15) <= 1e-12)
    }

    @Test func cubicIsCatmullRomByDefault() throws {
        let a = try KeyframeAnimation(values: [[0], [1], [4], [9]], calculationMode: .cubic)
        // Catmull–Rom through 0, 1, 4, 9 at keyTimes 0, 1/3, 2/3, 1: the middle segment at u = 1/2 is
        // (−p0 + 9p1 + 9p2 − p3)/16 = (0 + 9 + 36 − 9)/16.
        #expect(abs(a.value(at: 0.5)[0] - 36.0 / 16) <= 1e-12)
    }

    @Test func invalidKeyTimesThrow() {
        #expect(throws: KinemaError.self) { try KeyframeAnimation(values: [[0], [1]], keyTimes: [0, 1.5]) }
        #expect(throws: KinemaError.self) { try KeyframeAnimation(values: [[0], [1], [2]], keyTimes: [0, 0.8, 0.5]) }
        #expect(throws: KinemaError.self) { try KeyframeAnimation(values: [[0], [1], [2]], keyTimes: [0.1, 0.5, 1]) }
        #expect(throws: KinemaError.self) {
            try KeyframeAnimation(values: [[0], [1]], keyTimes: [0, 1], timingFunctions: [])
        }
        #expect(throws: KinemaError.self) { try KeyframeAnimation(values: [[0], [1, 2]]) }
        #expect(throws: KinemaError.self) { try KeyframeAnimation(values: []) }
    }

    /// Hand-computed CAMediaTiming cases: duration 2.
    @Test func mediaTimingMatchesHandComputedValues() throws {
        let plain = try MediaTiming(duration: 2)
        #expect(plain.progress(at: 1) == 0.5 && plain.progress(at: -1) == nil && plain.progress(at: 2) == nil)
        let repeated = try MediaTiming(duration: 2, repeatCount: 2.5, fillMode: .forwards)
        #expect(repeated.progress(at: 3) == 0.5)  // second cycle, half way
        #expect(repeated.progress(at: 4.5) == 0.25)  // third cycle
        #expect(repeated.progress(at: 10) == 0.5)  // stopped half way through the third cycle
        let reversing = try MediaTiming(duration: 2, autoreverses: true, fillMode: .both)
        #expect(
            reversing.progress(at: 1) == 0.5 && reversing.progress(at: 3) == 0.5 && reversing.progress(at: 3.5) == 0.25)
        #expect(reversing.progress(at: 5) == 0 && reversing.progress(at: -1) == 0)
        let backwards = try MediaTiming(beginTime: 1, duration: 2, fillMode: .backwards)
        #expect(backwards.progress(at: 0) == 0 && backwards.progress(at: 4) == nil)
        let fast = try MediaTiming(duration: 2, speed: 2, timeOffset: 0.5)
        #expect(fast.progress(at: 0.25) == 0.5)  // (0.25·2) + 0.5 = 1 → 1/2
        let forwards = try MediaTiming(duration: 2, repeatCount: 2, fillMode: .forwards)
        #expect(forwards.progress(at: 4) == 1 && forwards.progress(at: 100) == 1)
        let limited = try MediaTiming(duration: 2, repeatDuration: 3, fillMode: .removed)
        #expect(limited.progress(at: 2.5) == 0.25 && limited.progress(at: 3) == nil)
        #expect(throws: KinemaError.self) { try MediaTiming(duration: 0) }
    }
}

/// A motion's shape does not depend on its timescale, and neither do its keyframes: bounce-out
/// over a nanosecond or 1e-300 s bakes as over a second (its impacts 1e-9 s apart were one knot).
@Test(arguments: [1e-300, 1e-12, 1e-9, 1e-3, 1e6])
func bakesDoNotDependOnTheTimescale(duration: Double) throws {
    let second = try KeyframeBaker.bake(MotionSource(easing: Easing(name: "bounce-out"), duration: 1))
    let scaled = try KeyframeBaker.bake(MotionSource(easing: Easing(name: "bounce-out"), duration: duration))
    #expect(scaled.keyframeCount == second.keyframeCount)
    #expect(scaled.maxError <= 1e-3, "\(scaled.maxError)")
}

/// CSS identifiers against the examples MDN gives for `CSS.escape` (CSSOM's "serialize an identifier").
struct CSSIdentifierTests {
    @Test func escapesAsCSSEscapeDoes() {
        #expect(KeyframeExport.cssIdentifier(".foo#bar") == "\\.foo\\#bar")
        #expect(KeyframeExport.cssIdentifier("()[]{}") == "\\(\\)\\[\\]\\{\\}")
        #expect(KeyframeExport.cssIdentifier("--a") == "--a")
        #expect(KeyframeExport.cssIdentifier("0") == "\\30 ")
        #expect(KeyframeExport.cssIdentifier("\u{0}") == "\u{FFFD}")
        #expect(KeyframeExport.cssIdentifier("-") == "\\-")
        #expect(KeyframeExport.cssIdentifier("-1a") == "-\\31 a")
        #expect(KeyframeExport.cssIdentifier("kinema-a b{c}") == "kinema-a\\ b\\{c\\}")
        #expect(KeyframeExport.cssIdentifier("vélo_2") == "vélo_2")
    }

    @Test func keyframesNameIsEscapedWhereverItIsUsed() throws {
        let fit = try KeyframeBaker.bake(MotionSource(easing: Easing(name: "ease-in-out")), tolerance: 1e-3)
        let css = KeyframeExport.css(fit, name: "kinema-a b{c}")
        #expect(
            css.contains("@keyframes kinema-a\\ b\\{c\\} {")
                && css.contains(".kinema-a\\ b\\{c\\} { animation: kinema-a\\ b\\{c\\} "))
        #expect(!css.contains("a b{c}"))
    }

    /// Swift's escapes, as Swift's own string literals write them; quoted, a literal that
    /// evaluates back to the text.
    @Test func swiftEscapesAreSwifts() {
        let text = "a\"b\\c\\(1)\n\r\t\u{7}\u{85}\u{2028}é"
        #expect(KeyframeExport.swiftEscaped(text, quoted: false) == #"a"b\c\(1)\n\r\t\u{7}\u{85}\u{2028}é"#)
        #expect(KeyframeExport.swiftEscaped(text, quoted: true) == #""a\"b\\c\\(1)\n\r\t\u{7}\u{85}\u{2028}é""#)
    }

    /// A custom property name is `--` and at least one more character (`--` alone is reserved).
    @Test func customPropertiesAreNamedForTheirKeyPath() {
        #expect(KeyframeExport.cssProperty("position.x") == "--position-x")
        #expect(KeyframeExport.cssProperty("") == "--value")
        #expect(KeyframeExport.cssProperty("a b") == "--a-b")
    }
}

/// Penner's expo and elastic are pinned to exactly 0 and 1 at their ends, 2⁻¹⁰ (elastic: half
/// that; in-out: half again) off their curves' limits there: a jump no keyframes can follow. The
/// bake takes each jump in a linear piece of 1e-4 of the duration and holds the rest to the
/// tolerance, with about the keyframes the same curve takes unpinned, rather than crowding knots
/// towards the jump (expo-out at 1e-5: 15 keyframes, 10 of them in the last 5 %).
struct PinnedEndTests {
    /// Penner's curve written out here, unpinned: its limits at the ends.
    static func curve(_ family: String, _ mode: String) -> @Sendable (Double) -> Double {
        @Sendable func f(_ u: Double) -> Double {
            let growth: Double = exp2(10 * u - 10)
            return family == "expo" ? growth : -growth * sin((u - 1.075) * 2 * Double.pi / 0.3)
        }
        if mode == "in" { return { u in f(u) } }
        return { t in 1 - f(1 - t) }
    }

    @Test(arguments: ["expo", "elastic"], ["in", "out"])
    func jumpsAreTheirOwnPiece(family: String, mode: String) throws {
        let curve = Self.curve(family, mode)
        let pinnedAt = mode == "in" ? 0.0 : 1.0, limit = curve(pinnedAt), jump = pinnedAt - limit
        for tolerance in [1e-4, 1e-6, 1e-9] {
            let pinned = try KeyframeBaker.bake(
                MotionSource(easing: Easing(name: "\(family)-\(mode)")), tolerance: tolerance)
            // The same curve, unpinned and continuous, as a plain closure.
            let free = try KeyframeBaker.bake(
                MotionSource(
                    duration: 1, value: curve, velocity: { t, _ in (curve(t + 1e-7) - curve(t - 1e-7)) / 2e-7 }),
                tolerance: tolerance)
            let inside = mode == "in" ? (1e-4, 1.0) : (0.0, 1 - 1e-4)
            let error = gridError(pinned.animation, curve, from: inside.0, to: inside.1)
            #expect(error <= tolerance, "\(family)-\(mode) at \(tolerance): \(error)")  // the travel is 1
            #expect(abs(pinned.maxError - abs(jump)) <= 1e-3 * abs(jump), "\(pinned.maxError) against \(jump)")
            #expect(
                pinned.keyframeCount <= free.keyframeCount + 2,
                "\(family)-\(mode) at \(tolerance): \(pinned.keyframeCount) against \(free.keyframeCount) unpinned")
        }
    }

    /// Below what rounding allows, once two shortest pieces in a row fail alike, each piece is
    /// the longest within twice what the shortest reached, not the shortest: elastic-out at 1e-15
    /// made 10,007 keyframes, the last ones taken whatever their error (0.005), in 3.5 minutes.
    @Test func aToleranceBelowRoundingStopsShortOfTheKeyframeLimit() throws {
        let fit = try KeyframeBaker.bake(MotionSource(easing: Easing(name: "elastic-out")), tolerance: 1e-15)
        #expect(fit.keyframeCount < KeyframeBaker.keyframeLimit / 2, "\(fit.keyframeCount)")
        #expect(abs(fit.maxError - 0.5 * exp2(-10)) <= 1e-12, "\(fit.maxError)")  // the jump, nothing more
        let error = gridError(fit.animation, Self.curve("elastic", "out"), from: 0, to: 1 - 1e-4)
        #expect(error <= 1e-13, "\(error)")
    }

    /// Past a singular point the pieces meet the tolerance again: poly-in-out(0.001) is 0.48 of
    /// its travel within 1e-9 of its ends (no piece that short follows it) and within 1e-3
    /// everywhere else, not one piece within twice 0.48 from end to end.
    @Test func aSingularEndStaysWhereItIs() throws {
        let n = 0.001
        let curve: (Double) -> Double = { t in t < 0.5 ? pow(2 * t, n) / 2 : 1 - pow(2 - 2 * t, n) / 2 }
        let fit = try KeyframeBaker.bake(MotionSource(easing: Easing(name: "poly-in-out(\(n))")), tolerance: 1e-3)
        #expect(fit.maxError > 0.4, "\(fit.maxError)")  // reported, not hidden
        let error = gridError(fit.animation, curve, from: 1e-8, to: 1 - 1e-8)
        #expect(error <= 1e-3, "\(error)")
    }

    /// linear() easings take the jump the same way: expo-out within 1e-6 short of its end.
    @Test func linearEasingsTakeTheJumpInOnePiece() throws {
        let easing = try CSSLinearEasing(fitting: MotionSource(easing: Easing(name: "expo-out")), tolerance: 1e-6)
        let curve = Self.curve("expo", "out")
        let animation = try KeyframeAnimation(
            values: easing.stops.map { [$0.output] }, keyTimes: easing.stops.map(\.progress), duration: 1)
        #expect(gridError(animation, curve, from: 0, to: 1 - 1e-4) <= 1e-6 + 1e-15)
        let nearEnd = easing.stops.filter { $0.progress > 0.99 }.count
        #expect(nearEnd <= 3, "\(nearEnd) stops in the last 1 %")
    }
}

/// Where the velocity is infinite (circ's ends, circ-in-out's middle, where x = √y), the pieces
/// beside it are the parabola x = s², and the middle is a knot: circ-in-out at 1e-6 was 6.9e-6
/// off in its middle, circ-out at 1e-10 5.6e-8 at its start (every piece down to the shortest
/// failed).
@Test(arguments: ["circ-in", "circ-out", "circ-in-out"], [1e-4, 1e-6, 1e-10])
func verticalTangentsAreMetWithinTheTolerance(name: String, tolerance: Double) throws {
    let f: (Double) -> Double = { 1 - (1 - $0 * $0).squareRoot() }
    let curve: (Double) -> Double =
        switch name {
        case "circ-in": f
        case "circ-out": { 1 - f(1 - $0) }
        default: { $0 < 0.5 ? f(2 * $0) / 2 : 1 - f(2 - 2 * $0) / 2 }
        }
    let fit = try KeyframeBaker.bake(MotionSource(easing: Easing(name: name)), tolerance: tolerance)
    #expect(fit.maxError <= tolerance)
    // Around the vertical tangents too, where a grid of 20,001 points is too coarse.
    let steep = name == "circ-in-out" ? [(0.5 - 1e-6, 0.5 + 1e-6)] : name == "circ-in" ? [(1 - 1e-6, 1.0)] : [(0, 1e-6)]
    for (a, b) in [(0.0, 1.0)] + steep {
        let error = gridError(fit.animation, curve, from: a, to: b)
        #expect(error <= tolerance + 1e-15, "\(name) at \(tolerance) on [\(a), \(b)]: \(error)")
    }
}

/// Monotone easings whose ends are steep against their chord (a slope past 3× it) have Hermite
/// y-controls outside [0, 1], which carry the value past a segment's ends (quart-out's last
/// segment, y1 = 4/3, past 1). Fitted controls in [0, 1] meet the tolerance on the same pieces, so
/// none is outside, and the curve written out here stays within the tolerance.
@Test(arguments: ["quart-out", "quint-in-out", "poly-in(8)", "poly-in(50)", "poly-in(1000)"], [1e-3, 1e-4])
func steepMonotoneEasingsKeepTheirControlsInTheUnitSquare(name: String, tolerance: Double) throws {
    let curve: (Double) -> Double =
        switch name {
        case "quart-out": { 1 - Double.pow(1 - $0, 4) }
        case "quint-in-out": { $0 < 0.5 ? 16 * Double.pow($0, 5) : 1 - Double.pow(2 - 2 * $0, 5) / 2 }
        case "poly-in(8)": { Double.pow($0, 8) }
        case "poly-in(50)": { Double.pow($0, 50) }
        default: { Double.pow($0, 1000) }
        }
    let fit = try KeyframeBaker.bake(MotionSource(easing: Easing(name: name)), tolerance: tolerance)
    #expect(fit.controlsOutsideUnitInterval == 0, "\(name) at \(tolerance): \(fit.animation.timingFunctions)")
    #expect(gridError(fit.animation, curve) <= tolerance, "\(name) at \(tolerance)")
}

/// A cubic-bezier easing bakes into its own curve: each piece between its extrema is a piece of
/// the same cubic, so the fewest keyframes (the ends and the extrema) meet any tolerance down to
/// rounding. `ease-in` took 21 keyframes at 1e-9 and (0.68, −0.55, 0.265, 1.55) 37.
@Test(arguments: [
    [0.42, 0, 1, 1], [0.25, 0.1, 0.25, 1], [0.42, 0, 0.58, 1], [0.68, -0.55, 0.265, 1.55], [0.3, 1.4, 0.5, -0.2],
    [0.5, -3, 0.5, 4], [0.1, 0.7, 0.9, 0.1]
])
func bezierEasingsBakeIntoTheirOwnCurve(controls: [Double]) throws {
    let (x1, y1, x2, y2) = (controls[0], controls[1], controls[2], controls[3])
    func bezier(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
        3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s
    }
    // The curve by bisection on x(s) = t, here; its extrema from the roots of y'(s) in (0, 1).
    let curve: (Double) -> Double = { t in
        var (low, high) = (0.0, 1.0)
        for _ in 0..<200 { let s = 0.5 * (low + high); if bezier(x1, x2, s) < t { low = s } else { high = s } }
        return bezier(y1, y2, 0.5 * (low + high))
    }
    let (a, b, c) = (9 * y1 - 9 * y2 + 3, 6 * y2 - 12 * y1, 3 * y1)  // y'(s) = a s² + b s + c
    let roots = a == 0 ? [-c / b] : [1.0, -1.0].map { (-b + $0 * (b * b - 4 * a * c).squareRoot()) / (2 * a) }
    let extrema = roots.filter { $0 > 0 && $0 < 1 }.count
    let easing = try Easing(name: "cubic-bezier(\(x1),\(y1),\(x2),\(y2))")
    for tolerance in [1e-3, 1e-9] {
        let fit = try KeyframeBaker.bake(MotionSource(easing: easing), tolerance: tolerance)
        #expect(fit.keyframeCount == 2 + extrema, "\(controls) at \(tolerance): \(fit.keyframeCount) keyframes")
        #expect(gridError(fit.animation, curve) <= 1e-13, "\(controls) at \(tolerance)")
    }
}
