/// How a keyframe's components become a Core Animation value: the `NSNumber`, `NSValue` or
/// `CGColor` that the animated key path expects. Decided here, in plain Swift, so the choice is the
/// same (and tested) on every platform; `makeCAKeyframeAnimation` only does the wrapping.
public enum CoreAnimationValueType: String, CaseIterable, Sendable {
    /// One component: an `NSNumber` (`opacity`, `position.x`, `transform.rotation.z`).
    case number
    /// x, y: a `CGPoint` in an `NSValue` (`position`, `anchorPoint`).
    case point
    /// width, height: a `CGSize` in an `NSValue` (`bounds.size`, `shadowOffset`).
    case size
    /// x, y, width, height: a `CGRect` in an `NSValue` (`bounds`, `contentsRect`).
    case rect
    /// red, green, blue, alpha in 0…1: a `CGColor` (`backgroundColor`, `borderColor`).
    case color
    /// m11 … m44 row by row: a `CATransform3D` in an `NSValue` (`transform`, `sublayerTransform`).
    case transform3D

    /// The number of components a value of this type has.
    public var componentCount: Int {
        switch self {
        case .number: return 1
        case .point, .size: return 2
        case .rect, .color: return 4
        case .transform3D: return 16
        }
    }

    /// The type a key path with values of `componentCount` components takes: by the key path's
    /// last word where the count allows several (`…color` is a colour, `bounds`/`frame`/`…rect` a
    /// rectangle, `…size`/`…offset` a size), else by the count (2: a point, 16: a transform).
    /// - Throws: `KinemaError` when no Core Animation value has that many components
    ///   (3, for instance: animate such values as one track per component).
    public static func inferred(keyPath: String, componentCount: Int) throws -> CoreAnimationValueType {
        let name = keyPath.lowercased()
        switch componentCount {
        case 1: return .number
        case 2: return name.hasSuffix("size") || name.hasSuffix("offset") ? .size : .point
        case 4:
            if name.hasSuffix("color") { return .color }
            if name.hasSuffix("bounds") || name.hasSuffix("frame") || name.hasSuffix("rect") { return .rect }
            throw KinemaError(
                parameter: "values for key path '\(keyPath)'", value: "4 components",
                rule: "named by the key path: a colour (…Color) or a rectangle (bounds, frame, …Rect)")
        case 16: return .transform3D
        default:
            throw KinemaError(
                parameter: "values for key path '\(keyPath)'", value: "\(componentCount) components",
                rule: "1 (number), 2 (point or size), 4 (rect or colour) or 16 (transform)")
        }
    }
}
