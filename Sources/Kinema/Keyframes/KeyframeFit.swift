/// A baked keyframe animation with what it costs and how close it is to its source.
public struct KeyframeFit: Sendable {
    /// The keyframes, their times and timing functions.
    public let animation: KeyframeAnimation
    /// Max |animation − source| over the whole duration, by dense sampling plus refinement.
    public let maxError: Double
    /// Timing-function y-controls outside [0, 1] (0 when knots sit at every extremum).
    package let controlsOutsideUnitInterval: Int
    /// The max error an adaptive bake was asked for (tolerance × travel); nil for the others.
    package let bound: Double?
    /// What the source's value jumps by at its start and its end (`MotionSource.endJumps`).
    package let endJumps: (start: Double, end: Double)
    /// How the exports print its numbers (default: to the bound).
    public var rounding: Rounding = .toBound
    /// The number of keyframes.
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

extension KeyframeFit {
    /// How the exports print a fit's numbers.
    public enum Rounding: Sendable, Hashable {
        /// As few digits as keep the exported motion within the bound: an adaptive bake's
        /// tolerance × travel (the room its fit leaves, at least a millionth of the bound),
        /// otherwise a thousandth of the fit's own error.
        case toBound
        /// Every number in shortest round-trip form.
        case none
    }

    /// The digits each exported number keeps (`rounding`).
    public var precision: ExportPrecision {
        guard rounding == .toBound else { return .full }
        let values = animation.values.map { $0[0] }
        let travel = (values.max() ?? 0) - (values.min() ?? 0)
        let budget = bound.map { max($0 - maxError, 1e-6 * $0) } ?? max(1e-3 * maxError, 1e-12 * travel)
        return ExportPrecision(rounding: [animation], within: budget)
    }

    /// The most the exported animation can be from the source: the fit's error and the rounding's.
    public var exportedMaxError: Double { maxError + precision.roundingError }

    /// The fit with its values mapped (`ValueMapping`): an easing's 0 → 1 onto pixels, a
    /// fraction onto percent. The timing functions stay; errors scale with the mapping.
    /// - Throws: `KinemaError` where a mapped value overflows.
    public func mapped(_ mapping: ValueMapping) throws -> KeyframeFit {
        let a = animation, s = abs(mapping.scale)
        var fit = KeyframeFit(
            animation: try KeyframeAnimation(
                keyPath: a.keyPath, values: a.values.map { $0.map(mapping.callAsFunction) }, keyTimes: a.keyTimes,
                timingFunctions: a.timingFunctions, calculationMode: a.calculationMode, duration: a.duration,
                tensionValues: a.tensionValues, continuityValues: a.continuityValues, biasValues: a.biasValues),
            maxError: s * maxError, controlsOutsideUnitInterval: controlsOutsideUnitInterval,
            bound: bound.map { s * $0 },
            endJumps: (mapping.scale * endJumps.start, mapping.scale * endJumps.end))
        fit.rounding = rounding
        return fit
    }
}
