#if canImport(QuartzCore)
    import QuartzCore

    extension RetargetableSpring {
        /// The additive `CAKeyframeAnimation` that moves `keyPath`'s target by `delta` at
        /// `beginTime` (`retargetOffset(by:)`): set the layer's model value to the new target, then
        /// add this beside the animations already playing (under a key of its own, or nil). The
        /// layer shows the retargeted spring with its position and velocity kept.
        /// ```swift
        /// let old = layer.position.x
        /// layer.position.x = target
        /// layer.add(try baked.makeRetargetAnimation(keyPath: "position.x", by: target - old,
        ///                                           beginTime: CACurrentMediaTime()), forKey: nil)
        /// ```
        /// - Throws: `KinemaError` for a non-finite delta.
        public func makeRetargetAnimation(keyPath: String, by delta: Double, beginTime: CFTimeInterval = 0) throws
            -> CAKeyframeAnimation
        {
            try additive(retargetOffset(by: delta, keyPath: keyPath), beginTime: beginTime)
        }

        /// The additive `CAKeyframeAnimation` that adds `velocity` (points per second, a
        /// gesture's at its release) at `beginTime` (`releaseOffset(velocity:)`). A gesture's
        /// hand-off is the model value set to the target, `makeRetargetAnimation(by: target −
        /// finger position)` and this, both at the release.
        /// - Throws: `KinemaError` for a non-finite velocity.
        public func makeReleaseAnimation(keyPath: String, velocity: Double, beginTime: CFTimeInterval = 0) throws
            -> CAKeyframeAnimation
        {
            try additive(releaseOffset(velocity: velocity, keyPath: keyPath), beginTime: beginTime)
        }

        private func additive(_ offset: KeyframeAnimation, beginTime: CFTimeInterval) throws -> CAKeyframeAnimation {
            let animation = try offset.makeCAKeyframeAnimation(valueType: .number)
            animation.isAdditive = true
            animation.beginTime = beginTime
            return animation
        }
    }
#endif
