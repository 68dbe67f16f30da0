/// A value that springs and decays can animate: anything with a fixed number of `Double`
/// components (a number, a point, a size, a rectangle, a colour).
///
/// The motion is computed on the components, each with the same closed-form coefficients, so a
/// `SIMD3<Double>` moves exactly as three `Double`s would. Conforming a type of your own takes the
/// two conversions:
/// ```swift
/// extension Color3: AnimatableVector {
///     public var animatableComponents: SIMD3<Double> { SIMD3(red, green, blue) }
///     public init(animatableComponents c: SIMD3<Double>) { self.init(red: c.x, green: c.y, blue: c.z) }
/// }
/// ```
/// `Double`, `Float`, `SIMD2/3/4` of either conform here, and `CGFloat`, `CGPoint`, `CGSize` and
/// `CGRect` do too, on every platform (Foundation has them outside Apple's). The names are Kinema's own, so they do not clash with
/// SwiftUI's `VectorArithmetic` on the same types.
public protocol AnimatableVector: Equatable, Sendable {
    /// The components as a SIMD vector of doubles (a scalar uses lane 0 of a `SIMD2` and leaves
    /// lane 1 at zero).
    associatedtype AnimatableComponents: SIMD & Sendable where AnimatableComponents.Scalar == Double

    /// The value's components.
    var animatableComponents: AnimatableComponents { get }

    /// The value with these components.
    init(animatableComponents: AnimatableComponents)
}

extension Double: AnimatableVector {
    @inlinable public var animatableComponents: SIMD2<Double> { SIMD2(self, 0) }
    @inlinable public init(animatableComponents: SIMD2<Double>) { self = animatableComponents.x }
}

extension Float: AnimatableVector {
    @inlinable public var animatableComponents: SIMD2<Double> { SIMD2(Double(self), 0) }
    @inlinable public init(animatableComponents: SIMD2<Double>) { self = Float(animatableComponents.x) }
}

extension SIMD2: AnimatableVector where Scalar: BinaryFloatingPoint {
    @inlinable public var animatableComponents: SIMD2<Double> { SIMD2<Double>(self) }
    @inlinable public init(animatableComponents: SIMD2<Double>) { self.init(animatableComponents) }
}

extension SIMD3: AnimatableVector where Scalar: BinaryFloatingPoint {
    @inlinable public var animatableComponents: SIMD3<Double> { SIMD3<Double>(self) }
    @inlinable public init(animatableComponents: SIMD3<Double>) { self.init(animatableComponents) }
}

extension SIMD4: AnimatableVector where Scalar: BinaryFloatingPoint {
    @inlinable public var animatableComponents: SIMD4<Double> { SIMD4<Double>(self) }
    @inlinable public init(animatableComponents: SIMD4<Double>) { self.init(animatableComponents) }
}

extension AnimatableVector {
    /// Throws unless every component is finite.
    func requireFinite(_ name: String) throws {
        guard animatableComponents.allFinite else {
            throw KinemaError(parameter: name, value: "\(self)", rule: "finite in every component")
        }
    }
}

extension SIMD where Scalar == Double {
    /// Whether every component is finite (x − x is 0 only for finite x).
    @inlinable package var allFinite: Bool { (self - self) == .zero }

    /// Σ components², without the `sqrt` (settling compares squares).
    @inlinable var lengthSquared: Double { (self * self).sum() }
}
