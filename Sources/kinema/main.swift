import KinemaCLI

KinemaCommand.main()
