/// UIScrollView's rubber band: how far content moves when dragged past its edge,
/// ```
/// b(x) = (1 − 1/(x·c/d + 1))·d  =  c·x·d/(c·x + d)
/// ```
/// for a drag `x` past the edge, the view's `dimension` d and the constant c (0.55 in UIKit).
/// It starts at the finger's pace times c and never passes d. Negative drags are mirrored.
public struct RubberBand: Hashable, Sendable {
    /// UIKit's constant.
    public static let uiKitConstant = 0.55

    /// The length the band approaches (the view's width or height along the drag).
    public let dimension: Double
    /// The stiffness constant c.
    public let constant: Double

    /// - Throws: `KinemaError` unless `dimension` and `constant` are finite and > 0.
    public init(dimension: Double, constant: Double = RubberBand.uiKitConstant) throws {
        try KinemaError.requirePositive(dimension, "dimension")
        try KinemaError.requirePositive(constant, "constant")
        self.dimension = dimension
        self.constant = constant
    }

    /// The displayed offset for a drag of `overshoot` past the edge.
    public func offset(_ overshoot: Double) -> Double {
        let x = abs(overshoot)
        let banded = (1 - 1 / (x * constant / dimension + 1)) * dimension
        return overshoot < 0 ? -banded : banded
    }

    /// `position` inside `bounds` unchanged; past an end, the end plus the banded overshoot.
    public func clamp(_ position: Double, to bounds: ClosedRange<Double>) -> Double {
        if position < bounds.lowerBound { return bounds.lowerBound + offset(position - bounds.lowerBound) }
        if position > bounds.upperBound { return bounds.upperBound + offset(position - bounds.upperBound) }
        return position
    }

    /// The position `clamp` shows as `shown`: its inverse, for a drag that catches content
    /// while it is past an edge. A shown overshoot of `dimension` or more (which `clamp` never
    /// gives) maps to infinity.
    public func unclamp(_ shown: Double, from bounds: ClosedRange<Double>) -> Double {
        if shown < bounds.lowerBound { return bounds.lowerBound - overshoot(showing: bounds.lowerBound - shown) }
        if shown > bounds.upperBound { return bounds.upperBound + overshoot(showing: shown - bounds.upperBound) }
        return shown
    }

    /// The drag past the edge whose offset is `b` (≥ 0): x = b·d/(c·(d − b)).
    private func overshoot(showing b: Double) -> Double {
        b < dimension ? b * dimension / (constant * (dimension - b)) : .infinity
    }
}
