// The browser side of msanalysis.explorer.Explorer: draws the board Python sends and reports
// clicks. Python holds the game and the analysis; this file keeps no state of its own beyond
// the board as last drawn. The board arrives whole in `_board` (when a view opens or a new
// source is loaded) and then as patches in `_patch`: the cells whose state or group changed and
// the table of groups (colour, percentage, forced safe or mine).

const TOOLS = ["?", "F", "0", "1", "2", "3", "4", "5", "6", "7", "8"];

function element(tag, className, parent, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

function symbol(name) {
  return `<svg viewBox="0 0 100 100"><use href="#msanalysis-${name}"/></svg>`;
}

function numberInput(parent, label, value, min) {
  const wrap = element("label", "mse-field", parent, label + " ");
  const input = element("input", "", wrap);
  input.type = "number";
  input.min = String(min);
  input.value = value === null || value === undefined ? "" : String(value);
  return input;
}

function render({ model, el }) {
  const palette = model.get("_palette");
  const root = element("div", "mse-root", el);
  root.style.fontFamily = palette.font;
  // svg's symbols (flag, mine, tick), defined once per view and used by every cell.
  const defs = element("div", "mse-defs", root);
  defs.innerHTML = model.get("_defs").replace("<defs>", '<svg width="0" height="0"><defs>')
    .replace("</defs>", "</defs></svg>");

  // -- the bars -------------------------------------------------------------------------------
  const bar = element("div", "mse-bar", root);
  const modeButtons = {};
  for (const mode of ["play", "edit", "replay"]) {
    const button = element("button", "mse-mode", bar, mode);
    button.dataset.mode = mode;
    button.addEventListener("click", () => { model.set("mode", mode); model.save_changes(); });
    modeButtons[mode] = button;
  }
  const overlayLabel = element("label", "mse-overlays", bar, " ");
  const overlayBox = element("input", "", overlayLabel);
  overlayBox.type = "checkbox";
  overlayLabel.appendChild(document.createTextNode(" analysis"));
  overlayBox.addEventListener("change", () => {
    model.set("overlays", overlayBox.checked); model.save_changes();
  });
  const summary = element("span", "mse-summary", bar);

  const playBar = element("div", "mse-bar mse-play", root);
  const newWidth = numberInput(playBar, "width", 30, 1);
  const newHeight = numberInput(playBar, "height", 16, 1);
  const newMines = numberInput(playBar, "mines", 99, 0);
  const ruleLabel = element("label", "mse-field", playBar, "first click ");
  const ruleSelect = element("select", "", ruleLabel);
  for (const rule of model.get("_rules")) element("option", "", ruleSelect, rule).value = rule;
  ruleSelect.value = "safe-cell";
  const seedInput = numberInput(playBar, "seed", "", 0);
  const newButton = element("button", "mse-new", playBar, "new game");
  newButton.addEventListener("click", () => send({
    kind: "new", width: newWidth.value, height: newHeight.value, mines: newMines.value,
    rules: ruleSelect.value, seed: seedInput.value,
  }));
  element("span", "mse-hint", playBar, "click reveals, right click flags, shift+click explains");

  const editBar = element("div", "mse-bar mse-edit", root);
  let tool = "?";
  const toolButtons = {};
  for (const name of TOOLS) {
    const button = element("button", "mse-tool", editBar, name === "0" ? "0" : name);
    button.dataset.tool = name;
    button.addEventListener("click", () => { tool = name; drawTools(); });
    toolButtons[name] = button;
  }
  const editWidth = numberInput(editBar, "width", 0, 1);
  const editHeight = numberInput(editBar, "height", 0, 1);
  const editMines = numberInput(editBar, "mines", "", 0);
  const applyButton = element("button", "mse-apply", editBar, "apply");
  applyButton.addEventListener("click", () => send({
    kind: "size", width: editWidth.value, height: editHeight.value, mines: editMines.value,
  }));
  function drawTools() {
    for (const name of TOOLS) toolButtons[name].classList.toggle("mse-on", name === tool);
  }
  drawTools();

  const replayBar = element("div", "mse-bar mse-replay", root);
  const stepButtons = {};
  for (const [name, label] of [["first", "|◀"], ["back", "◀"], ["next", "▶"], ["last", "▶|"]]) {
    const button = element("button", "mse-step", replayBar, label);
    button.dataset.step = name;
    stepButtons[name] = button;
  }
  const slider = element("input", "mse-slider", replayBar);
  slider.type = "range";
  slider.min = "0";
  const stepLabel = element("span", "mse-step-label", replayBar);
  const verdict = element("div", "mse-verdict", root);
  function goTo(step) {
    const last = model.get("steps");
    step = Math.max(0, Math.min(last, step));
    if (step !== model.get("step")) { model.set("step", step); model.save_changes(); }
  }
  stepButtons.first.addEventListener("click", () => goTo(0));
  stepButtons.back.addEventListener("click", () => goTo(model.get("step") - 1));
  stepButtons.next.addEventListener("click", () => goTo(model.get("step") + 1));
  stepButtons.last.addEventListener("click", () => goTo(model.get("steps")));
  slider.addEventListener("input", () => goTo(Number(slider.value)));

  // -- the board ------------------------------------------------------------------------------
  const frame = element("div", "mse-frame", root);
  const lines = element("div", "mse-lines", root);
  const message = element("div", "mse-message", lines);
  const info = element("div", "mse-info", lines);
  const hoverLine = element("div", "mse-hover", lines);

  let board = null;   // {serial, width, height, cells: [chars], keys: Int32Array, table, ...}
  let grid = null;
  let nodes = [];
  let drawn = [];     // what each cell shows now, to touch only the cells that change
  let outlined = [];
  let pending = 0;    // performance.now() of the last click not yet answered
  let token = 0;

  function send(content) {
    token += 1;
    content.token = token;
    pending = performance.now();
    model.send(content);
  }

  function keyOf(i, ch) {
    const unknown = ch === "?" || (ch === "F" && board.ignore_flags);
    return unknown ? -1 : -2;
  }

  function load(full) {
    const n = full.width * full.height;
    const keys = new Int32Array(n);
    const cells = full.cells.split("");
    for (let i = 0; i < n; i++) keys[i] = -2;
    board = { ...full, cells, keys };
    for (let i = 0; i < n; i++) keys[i] = keyOf(i, cells[i]);
    for (const [i, key] of Object.entries(full.keys)) keys[Number(i)] = key;
    build();
  }

  function build() {
    const { width, height } = board;
    const size = model.get("cell_size");
    frame.innerHTML = "";
    grid = element("div", "mse-grid", frame);
    grid.style.gridTemplateColumns = `${Math.round(size * 0.9)}px repeat(${width}, ${size}px)`;
    grid.style.gridAutoRows = `${size}px`;
    grid.style.setProperty("--cell", `${size}px`);
    grid.style.setProperty("--grid-line", palette.grid);
    grid.style.setProperty("--face", palette.face);
    grid.dataset.width = String(width);
    grid.dataset.height = String(height);
    const fragment = document.createDocumentFragment();
    element("div", "mse-corner", fragment);
    for (let c = 0; c < width; c++) element("div", "mse-coord", fragment, String(c));
    nodes = new Array(width * height);
    drawn = new Array(width * height).fill("");
    for (let r = 0; r < height; r++) {
      element("div", "mse-coord mse-row", fragment, String(r));
      for (let c = 0; c < width; c++) {
        const node = element("div", "mse-cell", fragment);
        node.dataset.index = String(r * width + c);
        nodes[r * width + c] = node;
      }
    }
    grid.appendChild(fragment);
    outlined = [];
    drawAll();
  }

  function look(i) {
    // A string naming everything the cell shows, and what to draw for it.
    const ch = board.cells[i];
    const overlays = model.get("overlays");
    if (ch !== "?" && ch !== "F") return ch;
    const entry = overlays ? board.table[String(board.keys[i])] : undefined;
    if (!entry) return ch;
    return `${ch}|${entry.join("|")}`;
  }

  function draw(i) {
    const what = look(i);
    if (drawn[i] === what) return;
    drawn[i] = what;
    const node = nodes[i];
    const ch = board.cells[i];
    const entry = what.includes("|") ? what.split("|").slice(1) : null;
    node.className = "mse-cell";
    node.style.background = "";
    node.style.color = "";
    delete node.dataset.kind;
    if (ch >= "0" && ch <= "8") {
      node.classList.add("mse-open");
      node.dataset.state = ch;
      node.textContent = ch === "0" ? "" : ch;
      if (ch !== "0") node.style.color = palette.numbers[ch];
      return;
    }
    node.dataset.state = ch;
    if (ch === "*") { node.classList.add("mse-open"); node.innerHTML = symbol("mine"); return; }
    node.classList.add("mse-raised");
    node.dataset.kind = entry ? entry[0] : "";
    if (entry) node.style.background = entry[1];
    if (ch === "F") { node.innerHTML = symbol("flag"); return; }
    if (!entry) { node.textContent = ""; return; }
    if (entry[0] === "safe") node.innerHTML = symbol("tick");
    else if (entry[0] === "mine") node.innerHTML = `<div class="mse-inset">${symbol("mine")}</div>`;
    else {
      node.textContent = entry[2];
      node.style.color = entry[3];
      node.classList.add(entry[2].length > 3 ? "mse-p4" : entry[2].length > 2 ? "mse-p3" : "mse-p2");
    }
  }

  function drawAll() {
    for (let i = 0; i < nodes.length; i++) draw(i);
    drawOutlines();
    drawBars();
  }

  function drawOutlines() {
    for (const [node, cls] of outlined) node.classList.remove(cls);
    outlined = [];
    const mark = (i, cls) => {
      if (i >= 0 && i < nodes.length) { nodes[i].classList.add(cls); outlined.push([nodes[i], cls]); }
    };
    if (model.get("overlays") && board.best >= 0) mark(board.best, "mse-best");
    for (const i of board.conflict || []) mark(i, "mse-clue");
    const selected = model.get("selected");
    if (selected && selected.cell !== undefined) {
      mark(selected.cell, "mse-selected");
      for (const i of selected.clues || []) mark(i, "mse-clue");
    }
    const replay = model.get("_replay");
    const step = model.get("step");
    if (model.get("mode") === "replay" && step < replay.length) {
      const [, r, c] = replay[step];
      mark(r * board.width + c, "mse-next");
    }
  }

  function drawBars() {
    const mode = model.get("mode");
    for (const [name, button] of Object.entries(modeButtons)) {
      button.classList.toggle("mse-on", name === mode);
    }
    root.dataset.mode = mode;
    root.dataset.status = model.get("status");
    overlayBox.checked = model.get("overlays");
    playBar.style.display = mode === "play" ? "" : "none";
    editBar.style.display = mode === "edit" ? "" : "none";
    const replay = model.get("_replay");
    replayBar.style.display = mode === "replay" && replay.length ? "" : "none";
    verdict.style.display = replayBar.style.display;
    summary.textContent = model.get("summary");
    const status = model.get("status");
    summary.className = "mse-summary" + (status ? ` mse-${status}` : "");
    if (document.activeElement !== editWidth) editWidth.value = String(board.width);
    if (document.activeElement !== editHeight) editHeight.value = String(board.height);
    if (document.activeElement !== editMines) {
      editMines.value = board.mines === null || board.mines === undefined ? "" : String(board.mines);
    }
    const step = model.get("step");
    const steps = model.get("steps");
    slider.max = String(steps);
    slider.value = String(step);
    stepLabel.textContent = `${step} / ${steps}`;
    if (step < replay.length) {
      const [kind, r, c, judged, p] = replay[step];
      verdict.textContent = `next: action ${step + 1}, ${kind} (${r}, ${c})` +
        (judged ? `: ${judged}` : "") + (p ? `, mine probability ${p}` : "");
    } else {
      verdict.textContent = steps ? "the end of the replay" : "";
    }
    message.textContent = model.get("message");
    const selected = model.get("selected");
    info.textContent = selected && selected.text ? selected.text : "";
  }

  function applyPatch(patch) {
    if (!board || patch.serial <= board.serial) return;
    for (const [i, ch, key] of patch.cells) {
      board.cells[i] = ch;
      board.keys[i] = key;
    }
    const oldTable = board.table;
    board.serial = patch.serial;
    board.table = patch.table;
    board.best = patch.best;
    board.conflict = patch.conflict;
    board.mines = patch.mines;
    board.ignore_flags = patch.ignore_flags;
    // Redraw the cells that changed and those whose group's entry changed.
    const changedKeys = new Set();
    for (const key of Object.keys(patch.table)) {
      if (String(oldTable[key]) !== String(patch.table[key])) changedKeys.add(Number(key));
    }
    for (const key of Object.keys(oldTable)) if (!(key in patch.table)) changedKeys.add(Number(key));
    const keys = board.keys;
    for (let i = 0; i < nodes.length; i++) if (changedKeys.has(keys[i])) draw(i);
    for (const [i] of patch.cells) draw(i);
    drawOutlines();
    drawBars();
    if (patch.token !== null && patch.token === token) finished();
  }

  function finished() {
    if (pending) {
      root.dataset.latency = (performance.now() - pending).toFixed(1);
      pending = 0;
    }
    root.dataset.serial = String(board.serial);
  }

  // -- events ---------------------------------------------------------------------------------
  frame.addEventListener("click", (event) => {
    const node = event.target.closest(".mse-cell");
    if (!node) return;
    send({ kind: "click", index: Number(node.dataset.index), tool,
           explain: event.shiftKey || event.altKey });
  });
  frame.addEventListener("contextmenu", (event) => {
    const node = event.target.closest(".mse-cell");
    if (!node) return;
    event.preventDefault();
    send({ kind: "right", index: Number(node.dataset.index) });
  });
  frame.addEventListener("mouseover", (event) => {
    const node = event.target.closest(".mse-cell");
    if (!node) return;
    const i = Number(node.dataset.index);
    const r = Math.floor(i / board.width), c = i % board.width;
    const entry = board.table[String(board.keys[i])];
    hoverLine.textContent = entry && entry[0] === "p" ? `(${r}, ${c}): ${entry[2]}` : `(${r}, ${c})`;
    if (entry) model.send({ kind: "hover", index: i });
  });

  const onMessage = (content) => {
    if (content.hover !== undefined && board) {
      const i = content.hover;
      const r = Math.floor(i / board.width), c = i % board.width;
      if (content.text) hoverLine.textContent = `(${r}, ${c}): mine probability ${content.text}`;
    }
    if (content.done !== undefined && content.done === token) finished();  // nothing changed
  };
  model.on("msg:custom", onMessage);
  const onBoard = () => { load(model.get("_board")); finished(); };
  const onPatch = () => applyPatch(model.get("_patch"));
  const onOverlays = () => { drawn.fill(""); drawAll(); };
  const onBars = () => { drawOutlines(); drawBars(); };
  model.on("change:_board", onBoard);
  model.on("change:_patch", onPatch);
  model.on("change:overlays", onOverlays);
  model.on("change:cell_size", () => build());
  for (const name of ["mode", "selected", "message", "summary", "status", "step", "steps",
                      "_replay"]) {
    model.on(`change:${name}`, onBars);
  }
  load(model.get("_board"));
  const patch = model.get("_patch");
  if (patch && patch.serial) applyPatch(patch);
  finished();
  return () => {
    model.off("msg:custom", onMessage);
    model.off("change:_board", onBoard);
    model.off("change:_patch", onPatch);
    model.off("change:overlays", onOverlays);
    for (const name of ["mode", "selected", "message", "summary", "status", "step", "steps",
                        "_replay"]) {
      model.off(`change:${name}`, onBars);
    }
  };
}

export default { render };
