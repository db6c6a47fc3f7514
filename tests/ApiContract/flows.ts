// A CMDB integration written against the generated client only (schema.d.ts, from /openapi/v1.json by
// openapi-typescript): compiled with tsc --strict, so a field the contract types wrongly fails to compile, and run
// against the real server, so an answer the contract does not describe fails here. Prints "ok" and exits 0 when
// every flow held. Usage: node flows.js <baseUrl> <key with read and inventory:write> <granting key with
// policy:write> <approving key with policy:write>, against a server with Auth:WaiversNeedApproval on (its default).
import createClient from "openapi-fetch";
import type { components, paths } from "./schema";

// Node's own types are not installed: this is all the script uses of them.
declare const process: { argv: string[]; exit(code: number): never };

type InstanceInput = components["schemas"]["InstanceInput"];
type ChangeEntry = components["schemas"]["ChangeEntry"];

const [baseUrl, key, grantingKey, approvingKey] = process.argv.slice(2);
const api = createClient<paths>({ baseUrl, headers: { "X-Api-Key": key } });
// Four-eyes: a change-management job grants, the change board's key approves.
const granting = createClient<paths>({ baseUrl, headers: { "X-Api-Key": grantingKey } });
const approving = createClient<paths>({ baseUrl, headers: { "X-Api-Key": approvingKey } });

function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

const instance = (i: number): InstanceInput => ({
  externalKey: `CI${String(i).padStart(3, "0")}`,
  name: `SQL${String(i).padStart(3, "0")}`,
  host: `sql${String(i).padStart(3, "0")}.corp.example`,
  port: 1433,
  environment: i % 2 === 0 ? "Production" : "Test",
  tags: ["tier1"],
  encrypt: "Mandatory",
  pollIntervalSeconds: 300,
});

async function sync(): Promise<void> {
  const desired = Array.from({ length: 12 }, (_, i) => instance(i + 1));
  const dry = await api.POST("/api/v1/instances/sync", { body: { instances: desired, dryRun: true } });
  check(dry.response.status === 200 && dry.data !== undefined, `dry run: ${dry.response.status}`);
  check(dry.data.dryRun && dry.data.created.length === 12, `dry run created ${dry.data.created.length}`);

  const real = await api.POST("/api/v1/instances/sync", { body: { instances: desired } });
  check(real.data !== undefined && real.data.created.length === 12, `sync: ${real.response.status}`);
  const rateLimit = real.response.headers.get("RateLimit");
  check(rateLimit !== null && /;r=\d+;t=\d+$/.test(rateLimit), `RateLimit header: ${rateLimit}`);

  const again = await api.POST("/api/v1/instances/sync", { body: { instances: desired } });
  check(again.data !== undefined && again.data.unchanged.length === 12 && again.data.created.length === 0, "repeat sync changed something");
}

async function paging(): Promise<void> {
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await api.GET("/api/v1/instances", { params: { query: { limit: 5, sort: "name", cursor } } });
    check(page.data !== undefined, `page: ${page.response.status}`);
    seen.push(...page.data.items.map(i => i.externalKey ?? ""));
    cursor = page.data.nextCursor ?? undefined;
  } while (cursor !== undefined);
  check(seen.length === 12 && new Set(seen).size === 12, `paged ${seen.length} instances, ${new Set(seen).size} distinct`);
  check(seen.join() === [...seen].sort().join(), "pages sorted by name are not in name order");

  const one = await api.GET("/api/v1/instances/{externalKey}", { params: { path: { externalKey: "CI003" } } });
  const etag = one.response.headers.get("ETag");
  check(one.data !== undefined && etag !== null && one.data.encrypt === "Mandatory", `get: ${one.response.status}`);
  const notModified = await api.GET("/api/v1/instances/{externalKey}", {
    params: { path: { externalKey: "CI003" }, header: { "If-None-Match": etag } },
  });
  check(notModified.response.status === 304, `If-None-Match: ${notModified.response.status}`);
  const stale = await api.PUT("/api/v1/instances/{externalKey}", {
    params: { path: { externalKey: "CI003" }, header: { "If-Match": "\"1-999\"" } },
    body: { ...instance(3), externalKey: undefined, port: 14330 },
  });
  check(stale.response.status === 412, `stale If-Match: ${stale.response.status}`);
}

async function changes(): Promise<void> {
  const read = async (since: string | undefined): Promise<{ entries: ChangeEntry[]; cursor: string }> => {
    const entries: ChangeEntry[] = [];
    for (;;) {
      const page = await api.GET("/api/v1/changes", { params: { query: { limit: 5, since } } });
      check(page.data !== undefined, `changes: ${page.response.status}`);
      entries.push(...page.data.items);
      since = page.data.nextCursor;
      if (!page.data.hasMore) return { entries, cursor: since };
    }
  };
  // Assessments add status entries beside these whenever they run: the flow looks at the inventory's only.
  const inventory = (entries: ChangeEntry[]) => entries.filter(e => e.kind === "inventory");
  const first = await read(undefined);
  check(inventory(first.entries).filter(e => e.change === "created").length === 12, "not every registration is in the feed");
  check(new Set(first.entries.map(e => e.id)).size === first.entries.length, "the feed repeated an entry");

  const updated = await api.PUT("/api/v1/instances/{externalKey}", {
    params: { path: { externalKey: "CI005" } },
    body: { ...instance(5), externalKey: undefined, owner: "dba-team" },
  });
  check(updated.data !== undefined && updated.data.result === "updated", `update: ${updated.response.status}`);
  const next = inventory((await read(first.cursor)).entries);
  check(next.length === 1, `from the saved cursor: ${next.length} inventory entries`);
  const entry = next[0];
  check(entry.change === "updated" && entry.externalKey === "CI005" && entry.displayName === "SQL005", `entry: ${JSON.stringify(entry)}`);
}

async function waiver(): Promise<void> {
  const policy = await api.GET("/api/v1/policy");
  check(policy.data !== undefined && policy.data.waiversNeedApproval, `policy: ${policy.response.status}, ${JSON.stringify(policy.data)}`);

  // The server keeps the expiry to the second.
  const expiresAt = new Date(Math.floor(Date.now() / 1000) * 1000 + 14 * 24 * 3600 * 1000).toISOString();
  const granted = await granting.POST("/api/v1/waivers", {
    body: { instance: "CI007", reason: "CHG-4711: vendor upgrade window, IFI off until it closes", expiresAt },
  });
  check(granted.response.status === 201 && granted.data !== undefined, `grant: ${granted.response.status}`);
  const id = granted.data.id;
  check(granted.response.headers.get("Location") === `/api/v1/waivers/${id}`, `Location: ${granted.response.headers.get("Location")}`);
  check(granted.data.state === "AwaitingApproval" && granted.data.externalKey === "CI007" && granted.data.instanceName === "SQL007"
    && Date.parse(granted.data.expiresAt) === Date.parse(expiresAt), `granted: ${JSON.stringify(granted.data)}`);

  const byGranter = await granting.POST("/api/v1/waivers/{id}/approve", { params: { path: { id } } });
  check(byGranter.response.status === 403 && byGranter.error !== undefined, `approval by the granting key: ${byGranter.response.status}`);
  const approved = await approving.POST("/api/v1/waivers/{id}/approve", { params: { path: { id } } });
  check(approved.data !== undefined && approved.data.state === "Active", `approve: ${approved.response.status}`);
  check(approved.data.approvedBy !== null && approved.data.approvedBy !== undefined && approved.data.approvedBy !== approved.data.author
    && approved.data.approvedAt !== null && approved.data.approvedAt !== undefined, `approved: ${JSON.stringify(approved.data)}`);
  const twice = await approving.POST("/api/v1/waivers/{id}/approve", { params: { path: { id } } });
  check(twice.response.status === 409 && twice.error !== undefined, `second approval: ${twice.response.status}`);

  const read = await api.GET("/api/v1/waivers/{id}", { params: { path: { id } } });
  check(read.data !== undefined && read.data.state === "Active" && read.data.approvedBy === approved.data.approvedBy
    && Date.parse(read.data.expiresAt) === Date.parse(expiresAt), `read back: ${read.response.status}`);
  const listed = await api.GET("/api/v1/waivers");
  check(listed.data !== undefined && listed.data.some(w => w.id === id), `list: ${listed.response.status}`);

  const revoked = await granting.DELETE("/api/v1/waivers/{id}", { params: { path: { id } } });
  check(revoked.response.status === 204, `revoke: ${revoked.response.status}`);
  const gone = await api.GET("/api/v1/waivers/{id}", { params: { path: { id } } });
  check(gone.response.status === 404 && gone.error !== undefined, `after revoking: ${gone.response.status}`);
  const after = await api.GET("/api/v1/waivers");
  check(after.data !== undefined && !after.data.some(w => w.id === id), "a revoked waiver is still listed");
}

try {
  await sync();
  await paging();
  await changes();
  await waiver();
  console.log("ok");
} catch (e) {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
}
