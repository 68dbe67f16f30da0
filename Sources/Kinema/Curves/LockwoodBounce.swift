/// The polynomial `bounceEaseOut` of Nick Lockwood's *iOS Core Animation: Advanced Techniques* (ch. 10;
/// the same polynomials as AHEasing's `BounceEaseOut`), as its own curve:
/// ```
/// t < 4/11:   121/16·t²
/// t < 8/11:   363/40·t² − 99/10·t + 17/5
/// t < 9/10:   4356/361·t² − 35442/1805·t + 16061/1805
/// otherwise:  54/5·t² − 513/25·t + 268/25
/// ```
/// It is **not** Penner's bounce-out: the two share the first arc and the breakpoints 4/11 and 8/11,
/// but differ by up to 1/20 (at t = 6/11 Penner gives 0.75, this curve 0.7). Nor is it physical: its
/// arcs have effective gravities (second derivatives) 15.125, 18.15, 24.13 and 21.6, where a ball
/// under constant gravity would keep one. `PennerEasing(.bounce, .out)` is the physical one
/// (g = 121/8, restitution 1/2).
public struct LockwoodBounce: EasingCurve, Hashable {
    /// The curve (it has no parameters).
    public init() {}

    /// The arcs as (end of arc, a, b, c) for `a·t² + b·t + c`.
    static let arcs: [(end: Double, a: Double, b: Double, c: Double)] = [
        (4.0 / 11, 121.0 / 16, 0, 0),
        (8.0 / 11, 363.0 / 40, -99.0 / 10, 17.0 / 5),
        (9.0 / 10, 4356.0 / 361, -35442.0 / 1805, 16061.0 / 1805),
        (.infinity, 54.0 / 5, -513.0 / 25, 268.0 / 25)
    ]

    static func arc(at t: Double) -> (end: Double, a: Double, b: Double, c: Double) {
        arcs.first { t < $0.end } ?? arcs[arcs.count - 1]
    }

    public func value(at t: Double) -> Double {
        let arc = Self.arc(at: t)
        return (arc.a * t + arc.b) * t + arc.c
    }

    public func derivative(at t: Double) -> Double {
        let arc = Self.arc(at: t)
        return 2 * arc.a * t + arc.b
    }
}
