import ArgumentParser
import KinemaStudio

// Parsed and served here: from top-level code `StudioCommand.main()` and `run()` resolve to the
// synchronous overloads, which print the help instead of serving.
do {
    var command = try StudioCommand.parseAsRoot()
    if let studio = command as? StudioCommand {
        try await studio.serve()
    } else {
        try command.run()  // --help and the like
    }
} catch {
    StudioCommand.exit(withError: error)
}
