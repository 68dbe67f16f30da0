import Foundation
import Kinema
import KinemaTestSupport
import Testing

#if canImport(SwiftUI)
    import SwiftUI
#endif

// The "Getting started" article's code, verbatim (the last test checks it), run against closed forms.

/// A card that springs to wherever it is sent and can be grabbed in mid-flight: each frame reads
/// its position at the frame's date.
struct CardView: View {
    @State private var card = SpringTimeline(spring: .bouncy, value: CGPoint.zero)

    var body: some View {
        TimelineView(.animation) { context in
            let position = card.value(at: context.date)
            RoundedRectangle(cornerRadius: 12)
                .frame(width: 120, height: 80)
                .offset(x: position.x, y: position.y)
                .onTapGesture { card.retarget(to: card.target == .zero ? CGPoint(x: 0, y: 300) : .zero, at: .now) }
                .gesture(
                    DragGesture()
                        .onChanged { drag in
                            card.drag(
                                by: CGPoint(x: drag.translation.width, y: drag.translation.height), date: drag.time)
                        }
                        .onEnded { drag in
                            card.release(
                                velocity: CGPoint(x: drag.velocity.width, y: drag.velocity.height), date: drag.time)
                        }
                )
        }
    }
}

/// A list's scroll offset: it follows the finger, banded past the ends, and a flick
/// decelerates and bounces back onto the end it meets.
final class ScrollMotion {
    let bounds: ClosedRange<Double>
    private let band: RubberBand
    private var flick: BoundedDecayAnimator?
    private var flickStart = Date.distantPast
    private var dragStart: Double?
    private var dragged = 0.0

    init(contentLength: Double, viewLength: Double) throws {
        bounds = 0...max(0, contentLength - viewLength)
        band = try RubberBand(dimension: viewLength)
    }

    /// The offset shown at `date`.
    func offset(at date: Date) -> Double {
        guard let flick else { return dragged }
        return flick.value(at: date.timeIntervalSince(flickStart))
    }

    /// The finger has moved `translation` since it touched down; content moves with it.
    func drag(by translation: Double, at date: Date) {
        // A touch catches a flick where it is shown; past an end, at the drag that shows it there.
        let start = dragStart ?? band.unclamp(offset(at: date), from: bounds)
        dragStart = start
        flick = nil
        dragged = band.clamp(start - translation, to: bounds)
    }

    /// The finger lifts, moving at `velocity` (points per second).
    func release(velocity: Double, at date: Date) {
        dragStart = nil
        flick = BoundedDecayAnimator(value: dragged, velocity: -velocity, bounds: bounds)
        flickStart = date
    }
}

struct ScrollingList: View {
    let motion: ScrollMotion

    var body: some View {
        TimelineView(.animation) { context in
            Rectangle()
                .frame(width: 320, height: 2000)
                .offset(x: 0, y: -motion.offset(at: context.date))
                .gesture(
                    DragGesture()
                        .onChanged { drag in motion.drag(by: drag.translation.height, at: drag.time) }
                        .onEnded { drag in motion.release(velocity: drag.velocity.height, at: drag.time) }
                )
        }
    }
}

/// Balls dropped into a box, stepped to each display frame; a tap throws one up.
final class BallBox {
    private var world: PhysicsSimulator
    private let start: Date

    init(startingAt date: Date) throws {
        let balls = try (0..<6).map { i in
            try PhysicsBody(
                name: "ball \(i)", position: SIMD3(-0.5 + 0.2 * Double(i), 1 + 0.15 * Double(i), 0),
                velocity: SIMD3(0.3, 0, 0), radius: 0.08)
        }
        let box = [
            try Plane.floor(dimensions: 2, restitution: 0.7),
            try Plane(name: "left wall", normal: SIMD3(1, 0, 0), offset: -1, restitution: 0.7),
            try Plane(name: "right wall", normal: SIMD3(-1, 0, 0), offset: -1, restitution: 0.7)
        ]
        let scene = try PhysicsScene(
            dimensions: 2, bodies: balls, gravity: SIMD3(0, -9.81, 0), planes: box,
            contacts: PhysicsScene.Contacts(restitution: 0.7))
        world = try PhysicsSimulator(scene: scene, method: .dopri5(tolerance: 1e-9))
        start = date
    }

    /// Every ball's centre (metres, y up) in the frame shown at `date`. The simulator stops where
    /// it was on a frame it cannot take (`failure` says why); that is thrown, not drawn.
    func positions(at date: Date) throws -> [SIMD2<Double>] {
        world.advance(to: date.timeIntervalSince(start))
        if let failure = world.failure { throw failure }
        return world.scene.bodies.indices.map { ball in
            let centre = world.position(ofBody: ball)
            return SIMD2(centre.x, centre.y)
        }
    }

    /// Throws ball `index` upwards at 5 m/s from where it is.
    func throwUp(ball index: Int) throws {
        try world.setVelocity(SIMD3(0, 5, 0), ofBody: index)
    }
}

struct BallBoxView: View {
    let box: BallBox

    var body: some View {
        TimelineView(.animation) { context in
            let balls = (try? box.positions(at: context.date)) ?? []
            ZStack {
                ForEach(balls.indices, id: \.self) { i in
                    Circle()
                        .frame(width: 24, height: 24)
                        .offset(x: 150 * balls[i].x, y: -150 * balls[i].y)
                        .onTapGesture { try? box.throwUp(ball: i) }
                }
            }
        }
    }
}

@Suite struct GettingStartedTests {
    /// Frames at a jittered 60–120 Hz, as a display link reports them: `count` dates from `start`.
    static func frames(from start: Date, count: Int, seed: UInt64 = 7) -> [Date] {
        var random = SplitMix64(seed: seed), t = 0.0
        return (0..<count).map { _ in
            t += 1.0 / 120 + Double(random.next() % 1000) / 1000 * (1.0 / 120)
            return start.addingTimeInterval(t)
        }
    }

    /// The card follows the closed-form spring from its retarget state, and rests exactly on
    /// the target; read at dates out of order, it never rewinds.
    @Test func cardFollowsTheSpringAndRestsOnItsTarget() throws {
        let start = Date(timeIntervalSinceReferenceDate: 0)
        var card = SpringTimeline(spring: .bouncy, value: CGPoint.zero, at: start)
        card.retarget(to: CGPoint(x: 0, y: 300), at: start)
        let spring = DampedSpring.bouncy
        let motion = try spring.motion(from: 0, to: 300)
        let frames = Self.frames(from: start, count: 300)
        for date in frames {
            let position = card.value(at: date), t = date.timeIntervalSince(start)
            let settled = position.y == 300
            // Before it settles, the closed form to rounding; after, exactly the target.
            #expect(settled || abs(position.y - motion.position(at: t)) <= 1e-9 * 300, "t = \(t)")
            #expect(position.x == 0 && settled == card.isSettled(at: date))
        }
        #expect(card.value(at: frames[frames.count - 1]) == CGPoint(x: 0, y: 300))
        #expect(frames[frames.count - 1].timeIntervalSince(start) > spring.settlingDuration)
        // A retarget dated before the last change acts at the last change (where it has settled).
        let end = frames[frames.count - 1]
        card.retarget(to: .zero, at: end)
        card.retarget(to: CGPoint(x: 50, y: 0), at: frames[frames.count - 10])
        #expect(card.value(at: end) == CGPoint(x: 0, y: 300) && card.target == CGPoint(x: 50, y: 0))
        #expect(card.value(at: frames[frames.count - 10]) == CGPoint(x: 0, y: 300))
    }

    /// The card grabbed in mid-flight at jittered 60–120 Hz frames, held for 0.6 s, and released
    /// with the finger's velocity, as the view's gestures do: from the release on, every frame is
    /// the closed-form spring from the finger's state at the release time. Restarted at the last
    /// frame's time instead, the first frame after the release jumped (188 pt in an app).
    @Test func cardGrabbedInFlightLeavesTheFingerWithItsVelocity() throws {
        let start = Date(timeIntervalSinceReferenceDate: 0)
        var card = SpringTimeline(spring: .bouncy, value: CGPoint.zero, at: start)
        card.retarget(to: CGPoint(x: 0, y: 300), at: start)
        let frames = Self.frames(from: start, count: 200)
        let grab = frames[20], release = frames[20].addingTimeInterval(0.6)
        let caught = card.value(at: grab)
        card.drag(by: .zero, date: grab)
        for date in frames[21...] where date < release {
            card.drag(by: CGPoint(x: 40, y: -60), date: date)
            #expect(card.value(at: date) == CGPoint(x: caught.x + 40, y: caught.y - 60))
        }
        let finger = SIMD2(caught.x + 40, caught.y - 60), fingerVelocity = CGPoint(x: -500, y: 800)
        card.release(velocity: fingerVelocity, date: release)
        #expect(card.velocity(at: release) == fingerVelocity)
        let spring = DampedSpring.bouncy
        let x = try spring.motion(from: finger.x, to: 0, initialVelocity: -500)
        let y = try spring.motion(from: finger.y, to: 300, initialVelocity: 800)
        for date in frames where date > release {
            let t = date.timeIntervalSince(release), position = card.value(at: date)
            let settled = position == CGPoint(x: 0, y: 300)
            #expect(settled || abs(position.x - x.position(at: t)) <= 1e-9 * 300, "t = \(t)")
            #expect(settled || abs(position.y - y.position(at: t)) <= 1e-9 * 300, "t = \(t)")
        }
    }

    /// A drag past the top end is banded as UIScrollView bands it; a flick towards the bottom decays,
    /// meets the end at the closed-form time and comes back onto it; a touch mid-bounce does not jump.
    @Test func listDragsBandedFlicksAndBouncesBackOntoItsEnd() throws {
        let list = try ScrollMotion(contentLength: 2000, viewLength: 800)
        let start = Date(timeIntervalSinceReferenceDate: 0)
        #expect(list.bounds == 0...1200)

        list.drag(by: 120, at: start)  // pulled down 120 points at the top
        let band = try RubberBand(dimension: 800)
        #expect(list.offset(at: start) == -band.offset(120))

        list.drag(by: -1100, at: start)  // scrolled down to offset 1100
        #expect(list.offset(at: start) == 1100)
        list.release(velocity: -1500, at: start)  // content moving up at 1,500 points/s
        let meeting = try #require(Decay.normal.time(toReach: 1200, from: 1100, velocity: 1500))
        let beforeMeeting = start.addingTimeInterval(meeting * 0.999)
        let atMeeting = start.addingTimeInterval(meeting)
        #expect(abs(list.offset(at: atMeeting) - 1200) <= 1e-9)
        #expect(list.offset(at: beforeMeeting) < 1200)
        let pastTheEnd = Self.frames(from: atMeeting, count: 30).map { list.offset(at: $0) }
        #expect(pastTheEnd.contains { $0 > 1200 })  // carried past the end
        let later = start.addingTimeInterval(meeting + 3)
        #expect(abs(list.offset(at: later) - 1200) <= 0.001)  // and back onto it

        // A touch while the content is past the end catches it where it is shown.
        let overshoot = try #require(pastTheEnd.first { $0 > 1200 })
        let caught = try #require(Self.frames(from: atMeeting, count: 30).first { list.offset(at: $0) == overshoot })
        list.drag(by: 0, at: caught)
        #expect(abs(list.offset(at: caught) - overshoot) <= 1e-9 * 1200)
    }

    /// Ball 0 lands at the closed-form time; no ball ever leaves the box or overlaps another.
    @Test func ballsFallLandAndStayInTheBox() throws {
        let start = Date(timeIntervalSinceReferenceDate: 0)
        let box = try BallBox(startingAt: start)
        // Ball 0 falls from 1 m to its radius, 0.08 m, with no one above or beside it within reach.
        let landing = (2 * (1 - 0.08) / 9.81).squareRoot()
        var landedBy: Double?
        for date in Self.frames(from: start, count: 600) {
            let balls = try box.positions(at: date), t = date.timeIntervalSince(start)
            for (i, ball) in balls.enumerated() {
                #expect(ball.y >= 0.08 - 1e-12 && abs(ball.x) <= 1 - 0.08 + 1e-12, "ball \(i) at t = \(t)")
                for j in balls.indices where j > i {
                    #expect(((ball - balls[j]) * (ball - balls[j])).sum().squareRoot() >= 0.16 - 1e-12)
                }
            }
            if landedBy == nil, t >= landing { landedBy = t }
            if t < landing {
                #expect(abs(balls[0].y - (1 - 0.5 * 9.81 * t * t)) <= 1e-12, "free fall at t = \(t)")
            }
        }
        #expect(landedBy != nil)

        // A throw: 5 m/s up from where the ball is, then free flight (no ball within reach over 10 ms).
        let lastFrame = Self.frames(from: start, count: 600)[599]
        let before = try box.positions(at: lastFrame)
        let clear = before.indices.allSatisfy {
            $0 == 5 || ((before[$0] - before[5]) * (before[$0] - before[5])).sum() > 0.3 * 0.3
        }
        try box.throwUp(ball: 5)
        let after = try box.positions(at: lastFrame.addingTimeInterval(0.01))
        if clear { #expect(abs(after[5].y - (before[5].y + 5 * 0.01 - 0.5 * 9.81 * 0.01 * 0.01)) <= 1e-12) }
        #expect(after[5].y > before[5].y)
    }

    @Test func viewsAreBuiltFromTheModels() throws {
        let start = Date()
        _ = CardView().body
        _ = ScrollingList(motion: try ScrollMotion(contentLength: 2000, viewLength: 800)).body
        _ = BallBoxView(box: try BallBox(startingAt: start)).body
    }

    /// Every Swift snippet of the article appears in this file (whitespace aside).
    @Test func articleSnippetsAreTheOnesCompiledHere() throws {
        let snippets = try documentedSnippets(in: "Sources/Kinema/Kinema.docc/GettingStarted.md")
        let compiled = LibraryExamplesTests.normalized(
            try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8))
        #expect(snippets.count == 5)
        for snippet in snippets {
            #expect(compiled.contains(LibraryExamplesTests.normalized(snippet)), "Not compiled here:\n\(snippet)")
        }
    }
}

#if !canImport(SwiftUI)
    // Just enough of SwiftUI, from its documented signatures, for the article's views to compile here.
    protocol View {}

    @resultBuilder enum ViewBuilder {
        static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    }

    struct ModifiedContent<Content: View>: View { let content: Content }

    /// SwiftUI's `State`: storage outside the view, set from its (non-mutating) closures.
    @propertyWrapper struct State<Value> {
        private final class Storage {
            var value: Value
            init(_ value: Value) { self.value = value }
        }
        private let storage: Storage
        init(wrappedValue: Value) { storage = Storage(wrappedValue) }
        var wrappedValue: Value {
            get { storage.value }
            nonmutating set { storage.value = newValue }
        }
    }

    extension View {
        func frame(width: CGFloat? = nil, height: CGFloat? = nil) -> ModifiedContent<Self> { .init(content: self) }
        func offset(x: CGFloat = 0, y: CGFloat = 0) -> ModifiedContent<Self> { .init(content: self) }
        func onTapGesture(count: Int = 1, perform action: @escaping () -> Void) -> ModifiedContent<Self> {
            .init(content: self)
        }
        func gesture(_ gesture: DragGesture) -> ModifiedContent<Self> { .init(content: self) }
    }

    struct AnimationTimelineSchedule { static var animation: Self { .init() } }

    /// SwiftUI's `TimelineView<EveryMinuteTimelineSchedule, Never>.Context`: not generic over the
    /// content, so a closure's parameter type is known before its body is.
    struct TimelineViewDefaultContext { let date: Date }

    struct TimelineView<Content: View>: View {
        let content: (TimelineViewDefaultContext) -> Content
        init(
            _ schedule: AnimationTimelineSchedule,
            @ViewBuilder content: @escaping (TimelineViewDefaultContext) -> Content
        ) {
            self.content = content
        }
    }

    struct RoundedRectangle: View { init(cornerRadius: CGFloat) {} }
    struct Rectangle: View {}
    struct Circle: View {}

    struct ZStack<Content: View>: View {
        init(@ViewBuilder content: () -> Content) {}
    }

    struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content: View>: View {
        init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {}
    }

    struct DragGesture {
        struct Value {
            var time: Date
            var translation: CGSize
            var velocity: CGSize
        }
        func onChanged(_ action: @escaping (Value) -> Void) -> Self { self }
        func onEnded(_ action: @escaping (Value) -> Void) -> Self { self }
    }
#endif
