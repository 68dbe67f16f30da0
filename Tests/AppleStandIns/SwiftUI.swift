// A stand-in for the part of SwiftUI that `kinema keyframes --format swiftui` writes against,
// written from Apple's documented signatures (iOS 17, macOS 14), so that the generated source is
// type-checked on Linux (scripts/check-apple-sources.sh). Declarations only: nothing here plays.
@_exported import CoreGraphics

/// https://developer.apple.com/documentation/swiftui/vectorarithmetic
public protocol VectorArithmetic: AdditiveArithmetic {
    mutating func scale(by rhs: Double)
    var magnitudeSquared: Double { get }
}

/// https://developer.apple.com/documentation/swiftui/animatable
public protocol Animatable {
    associatedtype AnimatableData: VectorArithmetic
    var animatableData: AnimatableData { get set }
}

extension Double: VectorArithmetic, Animatable {
    public mutating func scale(by rhs: Double) { self *= rhs }
    public var magnitudeSquared: Double { self * self }
    public var animatableData: Double {
        get { self }
        set { self = newValue }
    }
}

extension CGFloat: VectorArithmetic, Animatable {
    public mutating func scale(by rhs: Double) { self *= CGFloat(rhs) }
    public var magnitudeSquared: Double { Double(self * self) }
    public var animatableData: CGFloat {
        get { self }
        set { self = newValue }
    }
}

/// https://developer.apple.com/documentation/swiftui/unitpoint
public struct UnitPoint: Hashable, Sendable {
    public var x: CGFloat
    public var y: CGFloat
    /// https://developer.apple.com/documentation/swiftui/unitpoint/init(x:y:)
    public init(x: CGFloat, y: CGFloat) {
        self.x = x
        self.y = y
    }
}

/// https://developer.apple.com/documentation/swiftui/unitcurve
public struct UnitCurve: Sendable {
    /// https://developer.apple.com/documentation/swiftui/unitcurve/linear
    public static let linear = UnitCurve()
    /// https://developer.apple.com/documentation/swiftui/unitcurve/bezier(startcontrolpoint:endcontrolpoint:)
    public static func bezier(startControlPoint: UnitPoint, endControlPoint: UnitPoint) -> UnitCurve { UnitCurve() }
}

/// https://developer.apple.com/documentation/swiftui/keyframes
public protocol Keyframes<Value> {
    associatedtype Value
}

/// https://developer.apple.com/documentation/swiftui/keyframetrackcontent
public protocol KeyframeTrackContent<Value> {
    associatedtype Value: Animatable
}

/// https://developer.apple.com/documentation/swiftui/linearkeyframe
public struct LinearKeyframe<Value: Animatable>: KeyframeTrackContent {
    /// https://developer.apple.com/documentation/swiftui/linearkeyframe/init(_:duration:timingcurve:)
    public init(_ to: Value, duration: TimeInterval, timingCurve: UnitCurve = .linear) {}
}

/// https://developer.apple.com/documentation/swiftui/cubickeyframe
public struct CubicKeyframe<Value: Animatable>: KeyframeTrackContent {
    /// https://developer.apple.com/documentation/swiftui/cubickeyframe/init(_:duration:startvelocity:endvelocity:)
    public init(_ to: Value, duration: TimeInterval, startVelocity: Value? = nil, endVelocity: Value? = nil) {}
}

/// A sequence of track contents, as the builder makes one.
public struct KeyframeTrackContentSequence<Value: Animatable>: KeyframeTrackContent {}

/// https://developer.apple.com/documentation/swiftui/keyframetrackcontentbuilder
@resultBuilder public enum KeyframeTrackContentBuilder<Value: Animatable> {
    public static func buildExpression<K: KeyframeTrackContent>(_ expression: K) -> K where K.Value == Value {
        expression
    }
    public static func buildPartialBlock<K: KeyframeTrackContent>(first: K) -> K where K.Value == Value { first }
    public static func buildPartialBlock<A: KeyframeTrackContent, B: KeyframeTrackContent>(accumulated: A, next: B)
        -> KeyframeTrackContentSequence<Value> where A.Value == Value, B.Value == Value
    { KeyframeTrackContentSequence() }
}

/// https://developer.apple.com/documentation/swiftui/keyframetrack
public struct KeyframeTrack<Root, Value: Animatable, Content: KeyframeTrackContent>: Keyframes
where Content.Value == Value {
    /// https://developer.apple.com/documentation/swiftui/keyframetrack/init(_:content:)
    public init(
        _ keyPath: WritableKeyPath<Root, Value>, @KeyframeTrackContentBuilder<Value> content: () -> Content
    ) {}
}

/// A sequence of tracks, as the builder makes one.
public struct KeyframesSequence<Value>: Keyframes {}

/// https://developer.apple.com/documentation/swiftui/keyframesbuilder
@resultBuilder public enum KeyframesBuilder<Value> {
    public static func buildExpression<Root, V, C>(_ track: KeyframeTrack<Root, V, C>) -> KeyframesSequence<Root> {
        KeyframesSequence()
    }
    public static func buildPartialBlock(first: KeyframesSequence<Value>) -> KeyframesSequence<Value> { first }
    public static func buildPartialBlock(accumulated: KeyframesSequence<Value>, next: KeyframesSequence<Value>)
        -> KeyframesSequence<Value>
    { accumulated }
}

/// https://developer.apple.com/documentation/swiftui/animationstatekey
public protocol AnimationStateKey {
    associatedtype Value
    static var defaultValue: Value { get }
}

/// https://developer.apple.com/documentation/swiftui/animationstate
public struct AnimationState<Value: VectorArithmetic> {
    /// https://developer.apple.com/documentation/swiftui/animationstate/subscript(_:)
    public subscript<K: AnimationStateKey>(key: K.Type) -> K.Value {
        get { K.defaultValue }
        set {}
    }
}

/// https://developer.apple.com/documentation/swiftui/animationcontext
public struct AnimationContext<Value: VectorArithmetic> {
    /// https://developer.apple.com/documentation/swiftui/animationcontext/state
    public var state: AnimationState<Value>
    /// https://developer.apple.com/documentation/swiftui/animationcontext/islogicallycomplete
    public var isLogicallyComplete: Bool
}

/// https://developer.apple.com/documentation/swiftui/customanimation
public protocol CustomAnimation: Hashable, Sendable {
    /// https://developer.apple.com/documentation/swiftui/customanimation/animate(value:time:context:)
    func animate<V: VectorArithmetic>(value: V, time: TimeInterval, context: inout AnimationContext<V>) -> V?
    /// https://developer.apple.com/documentation/swiftui/customanimation/velocity(value:time:context:)
    func velocity<V: VectorArithmetic>(value: V, time: TimeInterval, context: AnimationContext<V>) -> V?
    /// https://developer.apple.com/documentation/swiftui/customanimation/shouldmerge(previous:value:time:context:)
    func shouldMerge<V: VectorArithmetic>(
        previous: Animation, value: V, time: TimeInterval, context: inout AnimationContext<V>
    ) -> Bool
}

extension CustomAnimation {
    public func velocity<V: VectorArithmetic>(value: V, time: TimeInterval, context: AnimationContext<V>) -> V? {
        nil
    }
    public func shouldMerge<V: VectorArithmetic>(
        previous: Animation, value: V, time: TimeInterval, context: inout AnimationContext<V>
    ) -> Bool { false }
}

/// https://developer.apple.com/documentation/swiftui/animation
public struct Animation: Equatable, Sendable {
    /// https://developer.apple.com/documentation/swiftui/animation/init(_:)
    public init<A: CustomAnimation>(_ base: A) {}
}

extension Animation {
    /// https://developer.apple.com/documentation/swiftui/animation/default
    public static let `default` = Animation(DefaultAnimation())
    private struct DefaultAnimation: CustomAnimation {
        func animate<V: VectorArithmetic>(value: V, time: TimeInterval, context: inout AnimationContext<V>) -> V? {
            nil
        }
    }
}

/// https://developer.apple.com/documentation/swiftui/withanimation(_:_:)
public func withAnimation<Result>(_ animation: Animation? = .default, _ body: () throws -> Result) rethrows -> Result {
    try body()
}
