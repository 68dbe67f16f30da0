import Kinema
import Testing

/// How keyframe components become Core Animation values (the part of the `CAKeyframeAnimation`
/// builder that is plain Swift, so it is tested here on every platform).
@Suite struct CoreAnimationValueTypeTests {
    @Test(arguments: [
        ("opacity", 1, CoreAnimationValueType.number), ("position.x", 1, .number), ("position", 2, .point),
        ("anchorPoint", 2, .point), ("bounds.size", 2, .size), ("shadowOffset", 2, .size), ("bounds", 4, .rect),
        ("contentsRect", 4, .rect), ("backgroundColor", 4, .color), ("borderColor", 4, .color),
        ("transform", 16, .transform3D)
    ])
    func keyPathAndComponentCountChooseTheType(keyPath: String, count: Int, expected: CoreAnimationValueType) throws {
        let type = try CoreAnimationValueType.inferred(keyPath: keyPath, componentCount: count)
        #expect(type == expected && type.componentCount == count)
    }

    @Test(arguments: [("position", 3), ("cornerRadius", 4), ("x", 0), ("transform", 9)])
    func countsNoCoreAnimationValueHasAreErrorsNamingTheKeyPath(keyPath: String, count: Int) {
        do {
            _ = try CoreAnimationValueType.inferred(keyPath: keyPath, componentCount: count)
            Issue.record("\(count) components for \(keyPath) accepted")
        } catch let error as KinemaError {
            #expect(error.description.contains(keyPath) && error.description.contains("\(count) components"))
        } catch { Issue.record("\(error)") }
    }
}
