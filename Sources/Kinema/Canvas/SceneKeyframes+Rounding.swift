extension SceneKeyframes {
    /// The most a body's exported position can be from the simulated one, in pixels: the fit's
    /// error and the rounding's.
    public var maxError: Double { (bodies.map(\.maxError).max() ?? 0) + precision.roundingError }

    /// The precision the exports print with (`rounding`): the fits take 0.8 of the tolerance, the
    /// rounding at most the rest, split between x and y (a distance on the canvas).
    public var precision: ExportPrecision {
        guard rounding == .toBound else { return .full }
        let animations = bodies.flatMap { [$0.x.animation, $0.y.animation] }
        let perAxis = ExportPrecision(rounding: animations, within: 0.2 * tolerance / 2.squareRoot())
        return ExportPrecision(
            valueDecimals: perAxis.valueDecimals, timeDecimals: perAxis.timeDecimals,
            controlDecimals: perAxis.controlDecimals, roundingError: 2.squareRoot() * perAxis.roundingError)
    }
}
