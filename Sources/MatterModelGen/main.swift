// matter-model-gen: writes MatterClusters' generated Swift from the model file.
//
//   matter-model-gen MODEL.json OUT_DIR [HOME_DIR]           write the files (then run swift format on them):
//                                                            MatterClusters' in OUT_DIR, MatterHome's traits
//                                                            and device types in HOME_DIR when given
//   matter-model-gen MODEL.json OUT_DIR [HOME_DIR] --list    print the paths it writes, one per line
//
// scripts/model/generate.sh runs it and formats the result; the staleness test compares the committed files
// with a fresh run.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
let directories = arguments.filter { !$0.hasPrefix("--") }
guard directories.count >= 2, directories.count <= 3 else {
    FileHandle.standardError.write(Data("usage: matter-model-gen MODEL.json OUT_DIR [HOME_DIR] [--list]\n".utf8))
    exit(2)
}
do {
    let data = try Data(contentsOf: URL(fileURLWithPath: directories[0]))
    let model = try JSONDecoder().decode(ModelFile.self, from: data)
    let emitter = SwiftEmitter(model: model)
    var outputs = [(directories[1], try emitter.files())]
    if directories.count == 3 {
        let traits = TraitEmitter(model: model, resolver: emitter.resolver, header: emitter.header)
        outputs.append((directories[2], try traits.files()))
    }
    for (directory, files) in outputs {
        let out = URL(fileURLWithPath: directory)
        if arguments.contains("--list") {
            for path in files.keys.sorted() { print(out.appendingPathComponent(path).path) }
            continue
        }
        for (path, text) in files.sorted(by: { $0.key < $1.key }) {
            let url = out.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        if !arguments.contains("--list") {
            FileHandle.standardError.write(Data("matter-model-gen: \(files.count) files in \(directory)\n".utf8))
        }
    }
} catch {
    FileHandle.standardError.write(Data("matter-model-gen: \(error)\n".utf8))
    exit(1)
}
