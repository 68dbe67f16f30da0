// CoreGraphics on Apple's systems; Foundation declares the same four types elsewhere (Linux,
// Windows), so an app's geometry animates the same way on every platform.
#if canImport(CoreGraphics)
    import CoreGraphics
#else
    import Foundation
#endif

extension CGFloat: AnimatableVector {
    @inlinable public var animatableComponents: SIMD2<Double> { SIMD2(Double(self), 0) }
    @inlinable public init(animatableComponents: SIMD2<Double>) { self.init(animatableComponents.x) }
}

extension CGPoint: AnimatableVector {
    @inlinable public var animatableComponents: SIMD2<Double> { SIMD2(Double(x), Double(y)) }
    @inlinable public init(animatableComponents c: SIMD2<Double>) { self.init(x: CGFloat(c.x), y: CGFloat(c.y)) }
}

extension CGSize: AnimatableVector {
    @inlinable public var animatableComponents: SIMD2<Double> { SIMD2(Double(width), Double(height)) }
    @inlinable public init(animatableComponents c: SIMD2<Double>) {
        self.init(width: CGFloat(c.x), height: CGFloat(c.y))
    }
}

extension CGRect: AnimatableVector {
    /// Origin x, origin y, width, height.
    @inlinable public var animatableComponents: SIMD4<Double> {
        SIMD4(Double(origin.x), Double(origin.y), Double(size.width), Double(size.height))
    }
    @inlinable public init(animatableComponents c: SIMD4<Double>) {
        self.init(x: CGFloat(c.x), y: CGFloat(c.y), width: CGFloat(c.z), height: CGFloat(c.w))
    }
}
