// The MCP TypeScript SDK's client drives a real sift mcp over stdio and
// over streamable HTTP: tools, a built-in analysis with progress, the
// report as a resource, prompts, completion, and the errors the
// specification names (unknown tool: -32602; a refused path: a tool
// result with isError).
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';

const transports = {
  stdio: () => new StdioClientTransport({
    command: process.env.SIFT_BIN,
    args: ['mcp', '--allow', process.env.SIFT_ALLOW, '--sessions-dir', process.env.SIFT_MCP_STDIO_SESSIONS],
    stderr: 'ignore',
  }),
  http: () => new StreamableHTTPClientTransport(new URL(process.env.SIFT_MCP_URL)),
};

async function rpcError(p) {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof McpError, `not a JSON-RPC error: ${err}`);
    return err.code;
  }
  assert.fail('no error');
}

let checks = 0;
for (const [name, transport] of Object.entries(transports)) {
  const client = new Client({ name: 'sift-clients-test', version: '1.0.0' });
  await client.connect(transport());
  const caps = client.getServerCapabilities();
  assert.ok(caps.tools && caps.resources && caps.prompts && caps.completions, `${name}: capabilities ${JSON.stringify(caps)}`);

  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), ['analyze', 'follow_up', 'list_sessions', 'run_builtin_analysis']);

  const progress = [];
  const res = await client.callTool({ name: 'run_builtin_analysis', arguments: { analysis: 'topn', files: ['sales.csv'], question: 'total revenue by region' } },
    undefined, { onprogress: (p) => progress.push(p.message), timeout: 120_000 });
  const text = res.content.map((c) => c.text).join('');
  assert.ok(!res.isError, `${name}: the analysis failed: ${text}`);
  assert.ok(progress.includes('done'), `${name}: progress ${progress}`);
  const uri = text.match(/sift:\/\/sessions\/\S+\/report\.md/)?.[0];
  assert.ok(uri, `${name}: no report URI in ${text}`);

  const { resources } = await client.listResources();
  assert.ok(resources.some((r) => r.uri === uri), `${name}: ${uri} not listed`);
  const read = await client.readResource({ uri });
  assert.match(read.contents[0].text, /region/i);
  if (name === 'stdio') {
    // A file whose name has a space and non-ASCII text is listed with a
    // valid URI and reads back.
    const { mkdir, writeFile } = await import('node:fs/promises');
    const sid = uri.split('/')[3];
    await mkdir(`${process.env.SIFT_MCP_STDIO_SESSIONS}/${sid}/out`, { recursive: true });
    await writeFile(`${process.env.SIFT_MCP_STDIO_SESSIONS}/${sid}/out/收入 by region.csv`, 'x,y\n1,2\n');
    const odd = (await client.listResources()).resources.find((r) => r.uri.endsWith('.csv') && decodeURIComponent(r.uri).includes('收入 by region'));
    assert.ok(odd, `${name}: the file with a space and non-ASCII name is not listed`);
    assert.doesNotThrow(() => new URL(odd.uri), `${name}: ${odd.uri} is not a valid URI`);
    assert.ok(!odd.uri.includes(' '), `${name}: ${odd.uri} has a raw space`);
    const oddRead = await client.readResource({ uri: odd.uri });
    assert.equal(oddRead.contents[0].text, 'x,y\n1,2\n');
  }

  const refused = await client.callTool({ name: 'analyze', arguments: { question: 'x', files: ['../../etc/passwd'] } });
  assert.ok(refused.isError, `${name}: a path outside --allow must be refused`);
  assert.equal(await rpcError(client.callTool({ name: 'no_such_tool', arguments: {} })), -32602);

  const { prompts } = await client.listPrompts();
  assert.deepEqual(prompts.map((p) => p.name).sort(), ['analyze', 'builtin_analysis']);
  const prompt = await client.getPrompt({ name: 'builtin_analysis', arguments: { analysis: 'topn', file: 'sales.csv' } });
  assert.match(prompt.messages[0].content.text, /run_builtin_analysis/);
  assert.equal(await rpcError(client.getPrompt({ name: 'builtin_analysis', arguments: { analysis: 'astrology', file: 'sales.csv' } })), -32602);

  const analyses = await client.complete({ ref: { type: 'ref/prompt', name: 'builtin_analysis' }, argument: { name: 'analysis', value: 'to' } });
  assert.deepEqual(analyses.completion.values, ['topn']);
  const files = await client.complete({ ref: { type: 'ref/prompt', name: 'builtin_analysis' }, argument: { name: 'file', value: 'sa' } });
  assert.deepEqual(files.completion.values, ['sales.csv']);
  const id = uri.split('/')[3];
  const paths = await client.complete({ ref: { type: 'ref/resource', uri: 'sift://sessions/{id}/{+path}' }, argument: { name: 'path', value: 'rep' }, context: { arguments: { id } } });
  assert.ok(paths.completion.values.includes('report.md'), `${name}: paths ${paths.completion.values}`);
  assert.equal(await rpcError(client.complete({ ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'x', value: '' } })), -32602);

  await client.close();
  checks++;
  console.log(`MCP SDK client over ${name}: tools, analysis with ${progress.length} progress notes, resources, prompts, completion, errors`);
}
assert.equal(checks, 2);
