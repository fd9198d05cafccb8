-- Run by TestNeovim: Neovim's own LSP client against aclint lsp. It opens
-- the fixture, waits for the diagnostics, applies the preferred quick fix
-- the server offers, waits for the buffer to lint clean, and writes what
-- it saw as JSON to $ACLINT_RESULT.
local bin, fixture, result = os.getenv('ACLINT_BIN'), os.getenv('ACLINT_FIXTURE'), os.getenv('ACLINT_RESULT')
local out = { steps = {} }
local function finish()
  local f = assert(io.open(result, 'w'))
  f:write(vim.fn.json_encode(out))
  f:close()
  vim.cmd('qa!')
end
local function step(s) table.insert(out.steps, s) end

local ok, err = pcall(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(fixture))
  local buf = vim.api.nvim_get_current_buf()
  local id = vim.lsp.start_client({ name = 'aclint', cmd = { bin, 'lsp', '--debounce', '50ms' } })
  assert(id, 'the client did not start')
  vim.lsp.buf_attach_client(buf, id)
  local client = vim.lsp.get_client_by_id(id)
  step('attached')

  assert(vim.wait(30000, function() return #vim.diagnostic.get(buf) > 0 end, 20), 'no diagnostics within 30s')
  local diags = vim.diagnostic.get(buf)
  out.before = {}
  for _, d in ipairs(diags) do
    table.insert(out.before, { code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code), line = d.lnum, col = d.col, message = d.message })
  end
  step('diagnostics')

  local d = diags[1]
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = { start = { line = d.lnum, character = d.col }, ['end'] = { line = d.end_lnum or d.lnum, character = d.end_col or d.col } },
    context = { diagnostics = {} },
  }
  local resp = client.request_sync('textDocument/codeAction', params, 30000, buf)
  assert(resp and resp.result, 'no code action answer: ' .. vim.inspect(resp))
  local action
  out.actions = {}
  for _, a in ipairs(resp.result) do
    table.insert(out.actions, a.title)
    if a.isPreferred then action = a end
  end
  assert(action, 'no preferred quick fix among ' .. vim.inspect(out.actions))
  vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding or 'utf-16')
  out.fixed_line = vim.api.nvim_buf_get_lines(buf, d.lnum, d.lnum + 1, false)[1]
  step('applied')

  assert(vim.wait(30000, function() return #vim.diagnostic.get(buf) == 0 end, 20), 'still diagnostics 30s after the fix: ' .. vim.inspect(vim.diagnostic.get(buf)))
  step('clean')

  local hover = client.request_sync('textDocument/hover', { textDocument = params.textDocument, position = { line = d.lnum, character = d.col + 1 } }, 30000, buf)
  out.hover = hover and hover.result and hover.result.contents and hover.result.contents.value or ''
  step('hover')
end)
if not ok then out.error = tostring(err) end
finish()
