#if canImport(QuartzCore)
    import QuartzCore
    #if canImport(UIKit)
        import UIKit
    #endif

    extension KeyframeAnimation {
        /// A real `CAKeyframeAnimation` with these values, keyTimes, timing functions and mode, and
        /// `timing`'s begin time, speed, offset, repetition, autoreversing and fill mode when given.
        ///
        /// Values are wrapped as `valueType` says, or as `CoreAnimationValueType.inferred(keyPath:componentCount:)`
        /// decides from the key path and the component count: numbers, points, sizes, rectangles,
        /// colours or 3-D transforms.
        /// - Throws: `KinemaError` when the values' component count does not fit `valueType` (or no
        ///   Core Animation value has that many components).
        public func makeCAKeyframeAnimation(
            valueType: CoreAnimationValueType? = nil,
            timing: MediaTiming? = nil
        ) throws -> CAKeyframeAnimation {
            let components = values.first?.count ?? 1
            let type = try valueType ?? CoreAnimationValueType.inferred(keyPath: keyPath, componentCount: components)
            guard type.componentCount == components else {
                throw KinemaError(
                    parameter: "values for \(type.rawValue)", value: "\(components) components",
                    rule: "\(type.componentCount) components")
            }
            let animation = CAKeyframeAnimation(keyPath: keyPath)
            animation.values = values.map { Self.coreAnimationValue($0, as: type) }
            animation.keyTimes = keyTimes.map { NSNumber(value: $0) }
            animation.timingFunctions = timingFunctions.map {
                CAMediaTimingFunction(controlPoints: Float($0.x1), Float($0.y1), Float($0.x2), Float($0.y2))
            }
            switch calculationMode {
            case .linear: animation.calculationMode = .linear
            case .discrete: animation.calculationMode = .discrete
            case .paced: animation.calculationMode = .paced
            case .cubic: animation.calculationMode = .cubic
            case .cubicPaced: animation.calculationMode = .cubicPaced
            }
            if !tensionValues.isEmpty { animation.tensionValues = tensionValues.map { NSNumber(value: $0) } }
            if !continuityValues.isEmpty { animation.continuityValues = continuityValues.map { NSNumber(value: $0) } }
            if !biasValues.isEmpty { animation.biasValues = biasValues.map { NSNumber(value: $0) } }
            animation.duration = duration
            if let timing {
                animation.duration = timing.duration
                animation.beginTime = timing.beginTime
                animation.speed = Float(timing.speed)
                animation.timeOffset = timing.timeOffset
                animation.repeatCount = Float(timing.repeatCount)
                animation.repeatDuration = timing.repeatDuration
                animation.autoreverses = timing.autoreverses
                switch timing.fillMode {
                case .removed: animation.fillMode = .removed
                case .forwards: animation.fillMode = .forwards
                case .backwards: animation.fillMode = .backwards
                case .both: animation.fillMode = .both
                }
                // Filling forwards only shows if the animation stays on the layer once it ends.
                if timing.fillMode == .forwards || timing.fillMode == .both { animation.isRemovedOnCompletion = false }
            }
            return animation
        }

        static func coreAnimationValue(_ c: [Double], as type: CoreAnimationValueType) -> Any {
            let f = c.map { CGFloat($0) }
            switch type {
            case .number:
                return NSNumber(value: c[0])
            case .point:
                return Self.wrap(CGPoint(x: f[0], y: f[1]))
            case .size:
                return Self.wrap(CGSize(width: f[0], height: f[1]))
            case .rect:
                return Self.wrap(CGRect(x: f[0], y: f[1], width: f[2], height: f[3]))
            case .color:
                return CGColor(red: f[0], green: f[1], blue: f[2], alpha: f[3])
            case .transform3D:
                return NSValue(
                    caTransform3D: CATransform3D(
                        m11: f[0], m12: f[1], m13: f[2], m14: f[3], m21: f[4], m22: f[5], m23: f[6], m24: f[7],
                        m31: f[8], m32: f[9], m33: f[10], m34: f[11], m41: f[12], m42: f[13], m43: f[14], m44: f[15]))
            }
        }

        // NSValue's geometry initializers are UIKit's on iOS, tvOS and visionOS and Foundation's on macOS.
        #if canImport(UIKit)
            static func wrap(_ p: CGPoint) -> NSValue { NSValue(cgPoint: p) }
            static func wrap(_ s: CGSize) -> NSValue { NSValue(cgSize: s) }
            static func wrap(_ r: CGRect) -> NSValue { NSValue(cgRect: r) }
        #else
            static func wrap(_ p: CGPoint) -> NSValue { NSValue(point: p) }
            static func wrap(_ s: CGSize) -> NSValue { NSValue(size: s) }
            static func wrap(_ r: CGRect) -> NSValue { NSValue(rect: r) }
        #endif
    }
#endif
