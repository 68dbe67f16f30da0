// A stand-in for QuartzCore (Core Animation), written from Apple's documented signatures, so
// that Kinema's CAKeyframeAnimation builder is type-checked on Linux
// (scripts/check-apple-sources.sh). Only what Kinema uses; a misspelt property or a wrong type
// in Kinema fails the check as it would fail on Apple's SDKs.
@_exported import CoreGraphics

/// CoreFoundation's `CFTimeInterval` (seconds), as QuartzCore's properties take it.
public typealias CFTimeInterval = Double

/// https://developer.apple.com/documentation/quartzcore/catransform3d
public struct CATransform3D {
    public var m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat
    public var m21: CGFloat, m22: CGFloat, m23: CGFloat, m24: CGFloat
    public var m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat
    public var m41: CGFloat, m42: CGFloat, m43: CGFloat, m44: CGFloat

    public init(
        m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat, m21: CGFloat, m22: CGFloat, m23: CGFloat,
        m24: CGFloat, m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat, m41: CGFloat, m42: CGFloat,
        m43: CGFloat, m44: CGFloat
    ) {
        (self.m11, self.m12, self.m13, self.m14) = (m11, m12, m13, m14)
        (self.m21, self.m22, self.m23, self.m24) = (m21, m22, m23, m24)
        (self.m31, self.m32, self.m33, self.m34) = (m31, m32, m33, m34)
        (self.m41, self.m42, self.m43, self.m44) = (m41, m42, m43, m44)
    }
}

extension NSValue {
    /// https://developer.apple.com/documentation/foundation/nsvalue/init(catransform3d:)
    public convenience init(caTransform3D t: CATransform3D) { self.init(point: .zero) }
}

/// https://developer.apple.com/documentation/quartzcore/camediatimingfunction
open class CAMediaTimingFunction {
    /// https://developer.apple.com/documentation/quartzcore/camediatimingfunction/init(controlpoints::::)
    public init(controlPoints c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float) {}
}

/// https://developer.apple.com/documentation/quartzcore/caanimationcalculationmode
public struct CAAnimationCalculationMode: Hashable, RawRepresentable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let linear = Self(rawValue: "linear"), discrete = Self(rawValue: "discrete")
    public static let paced = Self(rawValue: "paced"), cubic = Self(rawValue: "cubic")
    public static let cubicPaced = Self(rawValue: "cubicPaced")
}

/// https://developer.apple.com/documentation/quartzcore/camediatimingfillmode
public struct CAMediaTimingFillMode: Hashable, RawRepresentable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let removed = Self(rawValue: "removed"), forwards = Self(rawValue: "forwards")
    public static let backwards = Self(rawValue: "backwards"), both = Self(rawValue: "both")
}

/// https://developer.apple.com/documentation/quartzcore/caanimation (with CAMediaTiming's properties)
open class CAAnimation {
    public init() {}
    open var duration: CFTimeInterval = 0
    open var beginTime: CFTimeInterval = 0
    open var speed: Float = 1
    open var timeOffset: CFTimeInterval = 0
    open var repeatCount: Float = 0
    open var repeatDuration: CFTimeInterval = 0
    open var autoreverses = false
    open var fillMode: CAMediaTimingFillMode = .removed
    open var isRemovedOnCompletion = true
}

/// https://developer.apple.com/documentation/quartzcore/caanimationgroup
open class CAAnimationGroup: CAAnimation {
    open var animations: [CAAnimation]?
}

/// https://developer.apple.com/documentation/quartzcore/capropertyanimation
open class CAPropertyAnimation: CAAnimation {
    open var keyPath: String?
    open var isAdditive = false
    open var isCumulative = false
    public convenience init(keyPath path: String?) {
        self.init()
        keyPath = path
    }
}

/// https://developer.apple.com/documentation/quartzcore/cakeyframeanimation
open class CAKeyframeAnimation: CAPropertyAnimation {
    open var values: [Any]?
    open var keyTimes: [NSNumber]?
    open var timingFunctions: [CAMediaTimingFunction]?
    open var calculationMode: CAAnimationCalculationMode = .linear
    open var tensionValues: [NSNumber]?
    open var continuityValues: [NSNumber]?
    open var biasValues: [NSNumber]?
}
