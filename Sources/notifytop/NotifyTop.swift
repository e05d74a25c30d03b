import ArgumentParser
import NotifyCommandLine

/// `notifytop`: the command line is NotifyCommandLine's ``NotifyTopCommand``, so tests parse it too.
@main
enum NotifyTop {
    static func main() {
        NotifyTopCommand.main()
    }
}
