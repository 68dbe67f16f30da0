/// A baked keyframe animation with what it costs and how close it is to its source.
public struct KeyframeFit: Sendable {
    public let animation: KeyframeAnimation
    /// Max |animation − source| over the whole duration, by dense sampling plus refinement.
    public let maxError: Double
    /// Timing-function y-controls outside [0, 1] (0 when knots sit at every extremum).
    public let controlsOutsideUnitInterval: Int
    /// The max error an adaptive bake was asked for (tolerance × travel); nil for the others.
    package let bound: Double?
    /// What the source's value jumps by at its start and its end (`MotionSource.endJumps`).
    package let endJumps: (start: Double, end: Double)
    public var keyframeCount: Int { animation.keyframeCount }

    /// Why an adaptive bake's max error is above its bound, in words; nil when it is not.
    package var shortfall: String? {
        guard let bound, !(maxError <= bound) else { return nil }
        let d = animation.duration
        if let (size, time) = [(endJumps.start, 0), (endJumps.end, d)].first(where: { abs($0.0) > bound }) {
            return "its value at t = \(time) is \(abs(size)) from its limit there (Penner's expo and elastic are "
                + "pinned to their ends), a jump no keyframes follow: they take it in a piece of at most \(KeyframeBaker.jumpPiece * d) s"
        }
        if keyframeCount >= KeyframeBaker.keyframeLimit {
            return "the bake stops at \(KeyframeBaker.keyframeLimit) keyframes; a looser tolerance fits"
        }
        return "pieces shorter than \(KeyframeBaker.shortestPiece * d) s did not get closer; a looser tolerance fits"
    }
}
