import ArgumentParser
import NotifySession

/// `notifytop`: the command line is NotifySession's ``NotifyTopCommand``, so tests parse it too.
@main
enum NotifyTop {
    static func main() {
        NotifyTopCommand.main()
    }
}
