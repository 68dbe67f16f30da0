#if canImport(SwiftUI)
    import SwiftUI

    /// A SwiftUI animatable value seen through ``AnimationArithmetic``, so the animations' motion
    /// (``SpringSegment``, ``DropSegment``) is the code the package's tests run.
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    struct SwiftUIVector<Value: VectorArithmetic>: AnimationArithmetic {
        var value: Value

        static var zero: Self { Self(value: .zero) }
        static func + (a: Self, b: Self) -> Self { Self(value: a.value + b.value) }
        static func - (a: Self, b: Self) -> Self { Self(value: a.value - b.value) }
        mutating func scale(by rhs: Double) { value.scale(by: rhs) }
        var magnitudeSquared: Double { value.magnitudeSquared }
    }
#endif
