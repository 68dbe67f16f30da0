#if canImport(QuartzCore)
import QuartzCore

extension KeyframeAnimation {
    /// A real `CAKeyframeAnimation` with these values, keyTimes, timing functions and mode.
    /// Scalar values become `NSNumber`s; vector values are left to the caller (wrap them in the
    /// `NSValue`s their key path expects and assign `values`).
    public func makeCAKeyframeAnimation() -> CAKeyframeAnimation {
        let animation = CAKeyframeAnimation(keyPath: keyPath)
        animation.duration = duration
        if values.allSatisfy({ $0.count == 1 }) { animation.values = values.map { NSNumber(value: $0[0]) } }
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
        return animation
    }
}
#endif
