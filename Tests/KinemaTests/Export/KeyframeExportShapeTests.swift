import Foundation
import Testing

@testable import Kinema

/// The export calls an app finds side by side: each takes a fit (or several), Lottie has a
/// playable-document call of its own, and a SwiftUI export takes a name so that two can sit in
/// one module (each declared `struct KinemaValues` and `kinemaKeyframes()`, so two collided).
@Suite struct KeyframeExportShapeTests {
    static func fit() throws -> KeyframeFit {
        try KeyframeBaker.bake(try MotionSource(spring: .bouncy, from: 0, to: 300), tolerance: 0.001)
    }

    @Test func twoNamedSwiftUIExportsDeclareDifferentNames() throws {
        let fit = try Self.fit()
        let card = KeyframeExport.swiftUI(fit, name: "card slide"), sheet = KeyframeExport.swiftUI([fit], name: "sheet")
        #expect(card.contains("struct CardSlideValues {") && card.contains("KeyframeTrack(\\CardSlideValues.value)"))
        #expect(card.contains("func cardSlideKeyframes() -> some Keyframes<CardSlideValues>"))
        #expect(sheet.contains("struct SheetValues {") && sheet.contains("func sheetKeyframes()"))
        let declared = { (text: String) in
            Set(
                text.split(separator: "\n").compactMap { line -> Substring? in
                    let words = line.split(separator: " ")
                    guard let keyword = words.firstIndex(where: { $0 == "struct" || $0 == "func" }),
                        keyword + 1 < words.count
                    else { return nil }
                    return words[keyword + 1].prefix { $0 != "(" && $0 != "{" }
                })
        }
        #expect(declared(card).isDisjoint(with: declared(sheet)) && declared(card).count == 2)
        // Unnamed, it is the export `kinema keyframes --format swiftui` has always printed.
        #expect(KeyframeExport.swiftUI([fit]) == KeyframeExport.swiftUI(fit, name: "kinema"))
        #expect(KeyframeExport.swiftUI([fit]).contains("struct KinemaValues {"))
    }

    /// Zero is written without its sign: `-0.0` came out of rounding into exports and CSV.
    @Test func zeroHasNoSign() {
        #expect(KeyframeExport.number(-0.0) == "0.0" && KeyframeExport.number(0) == "0.0")
        #expect(KeyframeExport.number(-1e-300) == "-1e-300" && KeyframeExport.number(.nan) == "null")
    }

    /// `lottie` is the playable document (layers, frame rate, size), not bare keyframes.
    @Test func lottieIsAPlayableDocument() throws {
        let fit = try Self.fit()
        let text = KeyframeExport.lottie([fit])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(document["fr"] as? Double == 60 && document["w"] as? Int == 512 && document["h"] as? Int == 512)
        #expect((document["layers"] as? [Any])?.count == 1)
        #expect(text == (try LottieDocument()).json([fit]))
        let custom = try LottieDocument(frameRate: 30, width: 200, height: 100)
        #expect(KeyframeExport.lottie([fit], document: custom) == custom.json([fit]))
    }
}
