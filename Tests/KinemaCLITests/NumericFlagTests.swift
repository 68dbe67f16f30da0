import ArgumentParser
import Testing

@testable import KinemaCLI

/// Each numeric spring, scene and simulation flag is declared twice in one file, its option and its rule;
/// these tests fail when the two drift, so that parsing, validation and a sweep's setters follow
/// from them.
struct NumericFlagTests {
    /// The names of `options`' numeric options (argument-parser's wrappers, `_name` in the mirror).
    static func numericOptions(_ options: some ParsableArguments) -> Set<String> {
        Set(
            Mirror(reflecting: options).children.compactMap { child in
                child.value is Option<Double?> ? child.label.map { String($0.dropFirst()) } : nil
            })
    }

    @Test func everyNumericOptionHasItsRuleAndEveryRuleItsOption() throws {
        #expect(Self.numericOptions(try SpringOptions.parse([])) == Set(SpringFlag.allCases.map { "\($0)" }))
        #expect(Self.numericOptions(try SceneOptions.parse([])) == Set(SceneFlag.allCases.map { "\($0)" }))
        #expect(
            Self.numericOptions(try SimulationOptions.parse([])) == Set(SimulationFlag.allCases.map { "\($0)" }))
    }

    /// Every flag parses into its own slot (values distinct per flag), reads back, and is set by
    /// the sweep's setter of its name.
    @Test func everyFlagParsesReadsBackAndIsSwept() throws {
        let value = { (raw: Int) in Double(raw) + 0.5 }
        let spring = try SpringOptions.parse(SpringFlag.allCases.flatMap { [$0.name, "\(value($0.rawValue))"] }).values
        let scene = try SceneOptions.parse(SceneFlag.allCases.flatMap { [$0.name, "\(value($0.rawValue))"] }).values
        var row = SweepCommand.RowFlags(
            scene: try SceneOptions.parse([]).values, simulation: try SimulationOptions.parse([]).values)
        for flag in SpringFlag.allCases {
            #expect(spring[flag] == value(flag.rawValue), "\(flag.name)")
            #expect(row.scene.springOptions[flag] == nil)
            let set = try #require(SweepCommand.setters[flag.name])
            set(&row, -3)
            #expect(row.scene.springOptions[flag] == -3, "\(flag.name)")
        }
        for flag in SceneFlag.allCases {
            #expect(scene[flag] == value(flag.rawValue), "\(flag.name)")
            let set = try #require(SweepCommand.setters[flag.name])
            set(&row, -3)
            #expect(row.scene[flag] == -3, "\(flag.name)")
        }
        let simulation = try SimulationOptions.parse(
            SimulationFlag.allCases.flatMap { [$0.name, "\(value($0.rawValue))"] }
        ).values
        for flag in SimulationFlag.allCases {
            #expect(simulation[flag] == value(flag.rawValue), "\(flag.name)")
            let set = try #require(SweepCommand.setters[flag.name])
            set(&row, -3)
            #expect(row.simulation[flag] == -3, "\(flag.name)")
        }
        #expect(Set(row.scene.springOptions.givenFlags) == Set(SpringFlag.allCases.map(\.name)))
        row.scene.springOptions[.mass] = nil
        #expect(!row.scene.springOptions.givenFlags.contains("--mass"))
    }

    /// Each rule is applied to its flag by name, and an absent flag is not checked.
    @Test func rulesAreCheckedByName() throws {
        var values = FlagValues<SceneFlag>(reading: try SceneOptions.parse([]))
        try values.check()
        values[.restitution] = 1.5
        #expect { try values.check() } throws: { "\($0)".contains("'--restitution' must be a number in [0, 1]") }
        try values.check(~(1 << SceneFlag.restitution.rawValue))
        values[.restitution] = nil
        values[.height] = -1
        #expect { try values.check() } throws: { "\($0)".contains("'--height' must be a finite number ≥ 0") }
    }
}
