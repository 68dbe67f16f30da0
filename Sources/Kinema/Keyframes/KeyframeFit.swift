/// A baked keyframe animation with what it costs and how close it is to its source.
public struct KeyframeFit: Sendable {
    public let animation: KeyframeAnimation
    /// Max |animation − source| over the whole duration, by dense sampling plus refinement.
    public let maxError: Double
    /// Timing-function y-controls outside [0, 1] (0 when knots sit at every extremum).
    public let controlsOutsideUnitInterval: Int
    public var keyframeCount: Int { animation.keyframeCount }
}
