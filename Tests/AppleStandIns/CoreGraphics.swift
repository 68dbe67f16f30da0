// A stand-in for CoreGraphics, written from Apple's documented signatures, so that Kinema's
// CoreGraphics code is type-checked on Linux (scripts/check-apple-sources.sh). Foundation on
// Linux already declares CGFloat, CGPoint, CGSize and CGRect, as CoreGraphics does on Apple's
// systems; this adds the rest of what Kinema uses.
@_exported import Foundation

/// https://developer.apple.com/documentation/coregraphics/cgcolor
public final class CGColor {
    /// https://developer.apple.com/documentation/coregraphics/cgcolor/init(red:green:blue:alpha:)
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {}
}
