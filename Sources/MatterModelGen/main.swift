// matter-model-gen: writes MatterClusters' generated Swift from the model file.
//
//   matter-model-gen MODEL.json OUT_DIR            write the files (then run swift format on them)
//   matter-model-gen MODEL.json OUT_DIR --list     print the paths it writes, one per line
//
// scripts/model/generate.sh runs it and formats the result; the staleness test compares the committed files
// with a fresh run.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: matter-model-gen MODEL.json OUT_DIR [--list]\n".utf8))
    exit(2)
}
do {
    let data = try Data(contentsOf: URL(fileURLWithPath: arguments[0]))
    let model = try JSONDecoder().decode(ModelFile.self, from: data)
    let files = try SwiftEmitter(model: model).files()
    let out = URL(fileURLWithPath: arguments[1])
    if arguments.contains("--list") {
        for path in files.keys.sorted() { print(path) }
        exit(0)
    }
    for (path, text) in files.sorted(by: { $0.key < $1.key }) {
        let url = out.appendingPathComponent(path)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }
    FileHandle.standardError.write(Data("matter-model-gen: \(files.count) files in \(arguments[1])\n".utf8))
} catch {
    FileHandle.standardError.write(Data("matter-model-gen: \(error)\n".utf8))
    exit(1)
}
