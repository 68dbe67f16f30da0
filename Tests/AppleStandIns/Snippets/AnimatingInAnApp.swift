// The SwiftUI snippet of the "Animating in an app" article, type-checked against the Kinema module
// built with the SwiftUI stand-in (scripts/check-apple-sources.sh): the snippets a Linux test cannot
// compile. Its motion is measured by CustomAnimationTests.
import Kinema
import SwiftUI

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
func animatingInAnApp(offset: inout Double, badge: inout CGPoint) throws {
    withAnimation(.kinema(try DampedSpring(tension: 170, friction: 26))) { offset = 300 }  // Rebound's dialect
    withAnimation(.drop(duration: 0.4, restitution: 0.5)) { badge = .zero }
}
