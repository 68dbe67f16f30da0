/// The arithmetic SwiftUI's `VectorArithmetic` gives a `CustomAnimation`'s value: addition, a
/// scale and a squared length. Kinema's SwiftUI animations are written against it once, so the
/// same code runs inside SwiftUI (through ``SwiftUIVector``) and in this package's tests, which
/// have no SwiftUI (through `Double` and vectors of their own).
protocol AnimationArithmetic: AdditiveArithmetic {
    mutating func scale(by rhs: Double)
    var magnitudeSquared: Double { get }
}

extension AnimationArithmetic {
    func scaled(by factor: Double) -> Self {
        var copy = self
        copy.scale(by: factor)
        return copy
    }

    /// The dot product, from squared lengths alone (polarization: ¼(‖a + b‖² − ‖a − b‖²)), which
    /// is all the protocol offers.
    func dot(_ other: Self) -> Double { ((self + other).magnitudeSquared - (self - other).magnitudeSquared) / 4 }
}

extension Double: AnimationArithmetic {
    mutating func scale(by rhs: Double) { self *= rhs }
    var magnitudeSquared: Double { self * self }
}
