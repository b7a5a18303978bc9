// derive-model.mjs - derives matter-emu's model file (model/matter-<version>.json) from a Matter specification
// data model in matter.js's "standard elements" form (packages/model/src/standard/elements/*.element.ts of a
// matter.js checkout: the specification's clusters, datatypes and device types, one generated file each).
//
//   node scripts/model/derive-model.mjs ELEMENTS_DIR VERSION [REVISIONS_JSON] > model/matter-VERSION.json
//
// REVISIONS_JSON (optional) is esp-matter-dm-validator's validation_data_VERSION.json (dmv_tool/data in its
// package), which carries the revisions of the published release's clusters and device types
// (connectedhomeip's data_model/VERSION): where matter.js's model is of a later point release (1.5.1 for
// 1.5), those revisions replace its own, so that devices report what validators of VERSION expect.
//
// It keeps the facts (IDs, names, types, access, conformance, constraints, qualities, defaults, device-type
// requirements) and drops the prose. Derived clusters (the mode clusters over ModeBase, the concentration
// measurements, the alarm and resource-monitoring clusters) are flattened over their base. The output is
// sorted and pretty-printed so that a new specification version shows as a readable diff. Needs only node.
import fs from "node:fs";
import path from "node:path";

const [dir, version, revisionsFile] = process.argv.slice(2);
if (!dir || !version) {
    console.error("usage: node derive-model.mjs ELEMENTS_DIR VERSION");
    process.exit(2);
}

// Every element constructor builds the same plain node: its tag, its properties and its children.
const make = tag => (props, ...children) => ({ tag, ...props, children: children.flat() });
const constructors = {
    Cluster: make("cluster"), Attribute: make("attribute"), Field: make("field"), Command: make("command"),
    Event: make("event"), Datatype: make("datatype"), DeviceType: make("deviceType"),
    Requirement: make("requirement"), Condition: make("condition"), SemanticTag: make("semanticTag"),
    SemanticNamespace: make("semanticNamespace"),
};
const top = [];
for (const file of fs.readdirSync(dir).filter(f => f.endsWith(".element.ts")).sort()) {
    let text = fs.readFileSync(path.join(dir, file), "utf8");
    text = text.replace(/^import[\s\S]*?;\s*$/gm, "");
    text = text.replace(/^MatterDefinition\.children\.push\([^)]*\);\s*$/gm, "");
    text = text.replace(/^export const (\w+)\s*=/gm, "__out.push(");
    text = text.replace(/\);\s*$/gm, ")); ").replace(/\)\)\);\s*$/gm, "));");
    const names = Object.keys(constructors);
    const aliases = [
        "ClusterElement", "AttributeElement", "FieldElement", "CommandElement", "EventElement", "DatatypeElement",
        "DeviceTypeElement", "RequirementElement", "ConditionElement", "SemanticTagElement",
        "SemanticNamespaceElement",
    ];
    const out = [];
    const fn = new Function("__out", ...names, ...aliases, text);
    fn(out, ...names.map(n => constructors[n]), ...names.map(n => constructors[n]));
    top.push(...out);
}

// The properties we keep, per element; everything else (details, xref, descriptions) is prose.
const keep = ["name", "id", "type", "base", "access", "conformance", "constraint", "quality", "default", "direction",
    "response", "priority", "classification", "title", "element", "isSeed", "category", "revision"];
// matter.js spells acronyms as words (VendorId, Acl, AddNoc); the specification, chip-tool and the SDK spell
// them as the specification does (VendorID, ACL, AddNOC). Names of attributes, commands, events, fields and
// datatypes get the specification's spelling back, word by word.
const acronyms = {
    Id: "ID", Ids: "IDs", Acl: "ACL", Noc: "NOC", Nocs: "NOCs", Nocsr: "NOCSR", Csr: "CSR", Icac: "ICAC",
    Rcac: "RCAC", Ipk: "IPK", Pin: "PIN", Url: "URL", Vid: "VID", Pake: "PAKE", Ipv4: "IPv4", Ipv6: "IPv6",
    Ca: "CA", Vvsc: "VVSC", Utc: "UTC", Dst: "DST", Dac: "DAC", Pai: "PAI", Ssid: "SSID", Ota: "OTA",
};
const renamed = new Set(["attribute", "command", "event", "field", "datatype"]);
function specName(name) {
    if (!/^[A-Z]/.test(name)) return name;
    return name.replace(/[A-Z][a-z]*\d*/g, word => acronyms[word] ?? word);
}
function clean(node) {
    const out = {};
    for (const k of keep) if (node[k] !== undefined) out[k] = node[k];
    if (renamed.has(node.tag) && typeof out.name === "string") out.name = specName(out.name);
    if (typeof out.type === "string" && /^[A-Z]/.test(out.type)) out.type = specName(out.type);
    if (typeof out.response === "string" && /^[A-Z]/.test(out.response)) out.response = specName(out.response);
    if (node.tag) out.tag = node.tag;
    const children = (node.children || []).map(clean);
    if (children.length) out.children = children;
    return out;
}

// Flattening: a derived element starts as a copy of its base; each child of the derived one overrides the
// base's child of the same tag and name (its properties win, its children merge the same way) or is added.
function merge(base, derived) {
    const out = { ...base, ...derived };
    // A derived datatype that names itself as its type (ModeOptionStruct of a mode cluster) keeps the base's.
    if (derived.type !== undefined && derived.type === derived.name && base.type !== undefined) out.type = base.type;
    const children = (base.children || []).map(c => ({ ...c }));
    for (const child of derived.children || []) {
        const i = children.findIndex(c => c.tag === child.tag && c.name === child.name);
        if (i >= 0) children[i] = merge(children[i], child);
        else children.push(child);
    }
    if (children.length) out.children = children;
    return out;
}

const clusters = top.filter(e => e.tag === "cluster").map(clean);
const byName = new Map(clusters.map(c => [c.name, c]));
const flattened = clusters.map(c => {
    if (!c.type || !byName.has(c.type)) return c;
    const base = byName.get(c.type);
    const { type, ...rest } = c;
    const merged = merge(base, rest);
    merged.base = type;
    delete merged.type;
    return merged;
});
// A command declared as another command of its cluster (LevelControl's MoveToLevelWithOnOff is MoveToLevel)
// takes that command's fields.
for (const cluster of flattened) {
    for (const command of (cluster.children || []).filter(c => c.tag === "command" && c.type)) {
        const source = cluster.children.find(c => c.tag === "command" && c.name === command.type);
        if (source && !(command.children || []).length && source.children) command.children = source.children;
        delete command.type;
    }
}
const datatypes = top.filter(e => e.tag === "datatype").map(clean);
const deviceTypes = top.filter(e => e.tag === "deviceType").map(clean);

// Revisions of the published release, when given.
const revisionNotes = [];
if (revisionsFile) {
    const published = JSON.parse(fs.readFileSync(revisionsFile, "utf8"));
    const clusterRevisions = new Map();
    const deviceRevisions = new Map();
    for (const deviceType of published) {
        deviceRevisions.set(parseInt(deviceType.id, 16), Number(deviceType.revision));
        for (const cluster of deviceType.clusters) clusterRevisions.set(parseInt(cluster.id, 16), Number(cluster.revision));
    }
    for (const cluster of flattened) {
        const attribute = (cluster.children || []).find(c => c.tag === "attribute" && c.id === 0xfffd);
        const revision = clusterRevisions.get(cluster.id);
        if (attribute && revision !== undefined && attribute.default !== revision) {
            revisionNotes.push(`cluster ${cluster.name} ${attribute.default} -> ${revision}`);
            attribute.default = revision;
        }
    }
    for (const deviceType of deviceTypes) {
        const revision = deviceRevisions.get(deviceType.id);
        for (const requirement of deviceType.children || []) {
            for (const child of requirement.children || []) {
                if (child.name !== "DeviceTypeList" || !Array.isArray(child.default) || !child.default.length) continue;
                if (revision !== undefined && child.default[0].revision !== revision) {
                    revisionNotes.push(`device type ${deviceType.name} ${child.default[0].revision} -> ${revision}`);
                    child.default[0].revision = revision;
                }
            }
        }
    }
}

const byId = (a, b) => (a.id ?? -1) - (b.id ?? -1) || a.name.localeCompare(b.name);
const model = {
    specification: version,
    source: "the Matter specification's data model as matter.js's standard elements",
    revisions: revisionsFile ? `the published ${version} release's (esp-matter-dm-validator's data)` : "matter.js's",
    revisionChanges: revisionNotes,
    datatypes: datatypes.sort((a, b) => a.name.localeCompare(b.name)),
    clusters: flattened.sort(byId),
    deviceTypes: deviceTypes.sort(byId),
};
process.stdout.write(JSON.stringify(model, null, 1) + "\n");
