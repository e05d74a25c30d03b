/// The package's release: what `notifytop --version` prints and what each producer of a stream
/// writes in its header, always the top entry of CHANGELOG.md (CI checks).
package enum PackageVersion {
    package static let current = "0.5.0"
}
