// The report page's one script (issue 26): unpacks the URL rows (model.ts ROW_FIELDS) and draws the
// URL table a page at a time, with filter, sorting and CSV export. page.ts inlines its source, so it is
// one function that imports nothing. Fast at 1,000,000 rows: they stay one string, with line starts
// in typed arrays, so a filter is `indexOf` over the whole text; only shown rows are split into fields.

// The browser APIs it uses, declared here so the core's type check stays free of the DOM library.
interface Elem {
  textContent: string | null;
  hidden: boolean;
  disabled: boolean;
  value: string;
  href: string;
  dataset: Record<string, string | undefined>;
  setAttribute(name: string, value: string): void;
  getAttribute(name: string): string | null;
  append(...nodes: (Elem | string)[]): void;
  replaceChildren(...nodes: Elem[]): void;
  querySelectorAll(selector: string): ArrayLike<Elem>;
  addEventListener(type: string, listener: () => void): void;
  open: boolean;
}
declare const document: { getElementById(id: string): Elem | null; createElement(tag: string): Elem; documentElement: Elem; querySelectorAll(selector: string): ArrayLike<Elem> };
declare function addEventListener(type: 'beforeprint' | 'afterprint', listener: () => void): void;
declare const performance: { now(): number; mark(name: string): void };
declare class Blob {
  constructor(parts: (string | Uint8Array)[], options?: { type: string });
  stream(): ReadableStream<Uint8Array>;
}
declare const URL: { createObjectURL(blob: Blob): string; revokeObjectURL(url: string): void };
declare function requestAnimationFrame(callback: () => void): void;

export function reportClient(): void {
  const byId = (id: string): Elem => {
    const found = document.getElementById(id);
    if (found === null) throw new Error(`the report page has no #${id}`);
    return found;
  };
  const model = JSON.parse(byId('sitemapkit-model').textContent ?? '{}') as { files: { name: string }[] };
  const fileNames = model.files.map((file) => file.name);
  const filterInput = byId('url-filter');
  const status = byId('url-status');
  const table = byId('url-table');
  const body = byId('url-rows');
  const csvLink = byId('url-csv');
  const previous = byId('url-previous');
  const next = byId('url-next');
  const pageNumber = byId('url-page');
  const pageSize = byId('url-page-size');
  const only = byId('url-only');
  const headers = Array.from(table.querySelectorAll('thead th'));
  const count = (n: number): string => n.toLocaleString('en-US');
  const asciiLower = (value: string): string => value.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());

  let text = '';
  let lowerText = '';
  let starts = new Uint32Array(1);
  let searchEnds = new Uint32Array(0);
  /** Each row's flags as bits (FLAG_BITS), so that "only rows with an error" reads no text. */
  let flagBits = new Uint8Array(0);
  const FLAG_BITS: Record<string, number> = { d: 1, e: 2, w: 4, f: 8 };
  let rowCount = 0;
  /** The rows the filter lets through, in the order shown (null: every row, in set order). */
  let view: Uint32Array | null = null;
  let query = '';
  let sortColumn = -1;
  let descending = false;
  let page = 0;
  const sortOrders = new Map<number, Uint32Array>();

  const shown = (): number => (view === null ? rowCount : view.length);
  const rowAt = (position: number): number => (view === null ? position : (view[position] as number));
  const fields = (row: number): string[] => text.slice(starts[row], (starts[row + 1] as number) - 1).split('\t');
  /** One field of a row, without splitting the others off ('' when the row has fewer). */
  const field = (row: number, column: number): string => {
    const end = (starts[row + 1] as number) - 1;
    let start = starts[row] as number;
    for (let c = 0; c < column; c++) {
      const tab = text.indexOf('\t', start);
      if (tab === -1 || tab > end) return '';
      start = tab + 1;
    }
    const stop = text.indexOf('\t', start);
    return text.slice(start, stop === -1 || stop > end ? end : stop);
  };

  async function unpack(): Promise<void> {
    const base64 = (byId('sitemapkit-rows').textContent ?? '').trim();
    // Uint8Array.fromBase64 (ES2026; Chromium 140, Firefox 133, Safari 18.2) decodes 4x faster than atob and a loop.
    const Uint8ArrayWithBase64 = Uint8Array as unknown as { fromBase64?: (text: string) => Uint8Array };
    let bytes: Uint8Array;
    if (typeof Uint8ArrayWithBase64.fromBase64 === 'function') bytes = Uint8ArrayWithBase64.fromBase64(base64);
    else {
      const binary = atob(base64);
      bytes = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    }
    const inflated = bytes.length === 0 ? new ArrayBuffer(0) : await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
    text = new TextDecoder().decode(inflated);
    if (text.length > 0 && !text.endsWith('\n')) text += '\n';
    const lineStarts: number[] = [0];
    const ends: number[] = [];
    const bits: number[] = [];
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', newline + 1)) {
      // The filter looks at loc and lastmod, the fields before the second TAB.
      const lineStart = lineStarts[lineStarts.length - 1] as number;
      const firstTab = text.indexOf('\t', lineStart);
      const secondTab = firstTab === -1 || firstTab > newline ? -1 : text.indexOf('\t', firstTab + 1);
      ends.push(secondTab === -1 || secondTab > newline ? newline : secondTab);
      // The flags are the last field: the letters after the line's last TAB.
      let flags = 0;
      for (let at = text.lastIndexOf('\t', newline) + 1; at > lineStart && at < newline; at++) flags |= FLAG_BITS[text.charAt(at)] ?? 0;
      bits.push(flags);
      lineStarts.push(newline + 1);
    }
    starts = Uint32Array.from(lineStarts);
    searchEnds = Uint32Array.from(ends);
    flagBits = Uint8Array.from(bits);
    rowCount = ends.length;
    // ASCII letters only: toLowerCase can change a string's length ('İ' becomes two characters), and
    // the positions found in the copy must be positions in the text.
    lowerText = asciiLower(text);
  }

  /** Rows whose loc or lastmod holds `needle`, in set order (ASCII case ignored unless it has capitals). */
  function matchingRows(needle: string): Uint32Array {
    const haystack = /[A-Z]/.test(needle) ? text : lowerText;
    const found = new Uint32Array(rowCount);
    let matches = 0;
    let row = 0;
    for (let at = haystack.indexOf(needle); at !== -1; ) {
      while ((starts[row + 1] as number) <= at) row++;
      if (at + needle.length <= (searchEnds[row] as number)) found[matches++] = row;
      // Whether it matched or lay past lastmod, the next match worth a look is on a later line.
      at = row + 1 < rowCount ? haystack.indexOf(needle, starts[row + 1]) : -1;
    }
    return found.subarray(0, matches);
  }

  /** Every row in ascending order of `column`, computed once per column. */
  function sortOrder(column: number): Uint32Array {
    const cached = sortOrders.get(column);
    if (cached !== undefined) return cached;
    // A plain array: V8 sorts it with a comparator several times faster than a Uint32Array.
    const order = Array.from({ length: rowCount }, (_, i) => i);
    if (column === 0 || column === 7) {
      const keys: string[] = new Array(rowCount);
      for (let row = 0; row < rowCount; row++) keys[row] = field(row, column);
      order.sort((a, b) => ((keys[a] as string) < (keys[b] as string) ? -1 : (keys[a] as string) > (keys[b] as string) ? 1 : a - b));
    } else {
      // Numbers: dates as time, the file by name, changefreq from always to never; empty values last.
      const names = fileNames.map((name, index) => ({ name, index })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const fileRank = new Float64Array(fileNames.length);
      names.forEach((entry, rank) => { fileRank[entry.index] = rank; });
      const frequencies = ['always', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'never'];
      const keys = new Float64Array(rowCount);
      for (let row = 0; row < rowCount; row++) {
        const value = field(row, column);
        const key = value === '' ? NaN
          : column === 1 ? Date.parse(value)
            : column === 2 ? (fileRank[Number(value)] ?? NaN)
              : column === 3 ? frequencies.indexOf(value) : Number(value);
        keys[row] = Number.isNaN(key) || key < 0 ? Infinity : key;
      }
      order.sort((a, b) => (keys[a] as number) - (keys[b] as number) || a - b);
    }
    const sorted = Uint32Array.from(order);
    sortOrders.set(column, sorted);
    return sorted;
  }

  /** The rows that pass the filter and the "Show" choice, in set order (null: every row). */
  function matchingView(): Uint32Array | null {
    const matches = query === '' ? null : matchingRows(query);
    const bit = FLAG_BITS[only.value] ?? 0;
    if (bit === 0) return matches;
    const kept = new Uint32Array(matches === null ? rowCount : matches.length);
    let length = 0;
    if (matches === null) for (let row = 0; row < rowCount; row++) { if (((flagBits[row] as number) & bit) !== 0) kept[length++] = row; }
    else for (const row of matches) { if (((flagBits[row] as number) & bit) !== 0) kept[length++] = row; }
    return kept.subarray(0, length);
  }

  function computeView(): void {
    const matches = matchingView();
    if (sortColumn < 0) {
      view = matches;
      return;
    }
    const order = sortOrder(sortColumn);
    let keep: Uint8Array | null = null;
    if (matches !== null) {
      keep = new Uint8Array(rowCount);
      for (const row of matches) keep[row] = 1;
    }
    const ordered = new Uint32Array(matches === null ? rowCount : matches.length);
    let length = 0;
    for (let i = 0; i < rowCount; i++) {
      const row = order[descending ? rowCount - 1 - i : i] as number;
      if (keep === null || keep[row] === 1) ordered[length++] = row;
    }
    view = ordered;
  }

  function cell(tag: string, content: string | Elem, className?: string): Elem {
    const element = document.createElement(tag);
    if (className !== undefined) element.setAttribute('class', className);
    element.append(content);
    return element;
  }

  function rowElement(row: number): Elem {
    const [loc = '', lastmod = '', file = '', changefreq = '', priority = '', images = '', alternates = '', flags = ''] = fields(row);
    const tr = document.createElement('tr');
    let locContent: string | Elem = loc;
    if (/^https?:\/\//i.test(loc)) {
      locContent = document.createElement('a');
      locContent.setAttribute('href', loc);
      locContent.setAttribute('rel', 'noreferrer nofollow');
      locContent.append(loc);
    }
    const notes = [flags.includes('d') ? 'duplicate' : '', flags.includes('e') ? 'error' : '', flags.includes('w') ? 'warning' : '', flags.includes('f') ? 'future lastmod' : '']
      .filter((note) => note !== '').join(', ');
    const locCell = cell('th', locContent, 'loc');
    locCell.setAttribute('scope', 'row');
    tr.append(
      locCell, cell('td', lastmod), cell('td', fileNames[Number(file)] ?? file),
      cell('td', changefreq), cell('td', priority, 'n'), cell('td', images, 'n'), cell('td', alternates, 'n'), cell('td', notes, flags.includes('e') ? 'bad' : ''),
    );
    return tr;
  }

  function draw(): void {
    const size = Number(pageSize.value);
    const total = shown();
    const pages = Math.max(1, Math.ceil(total / size));
    page = Math.min(page, pages - 1);
    const first = page * size;
    const last = Math.min(total, first + size);
    const rows: Elem[] = [];
    for (let position = first; position < last; position++) rows.push(rowElement(rowAt(position)));
    body.replaceChildren(...rows);
    previous.disabled = page === 0;
    next.disabled = page >= pages - 1;
    pageNumber.textContent = `Page ${count(page + 1)} of ${count(pages)}`;
    const range = total === 0 ? 'No URL' : `URLs ${count(first + 1)}–${count(last)} of ${count(total)}`;
    const chosen = only.value === '' ? '' : ` ${only.querySelectorAll('option:checked')[0]?.textContent ?? ''}`;
    status.textContent = query === '' && chosen === '' ? `${range}.` : `${range}${chosen}${query === '' ? '' : ` matching “${query}”`} (${count(rowCount)} in all).`;
  }

  function refresh(): void {
    const began = performance.now();
    computeView();
    page = 0;
    draw();
    table.dataset.filterMilliseconds = String(performance.now() - began);
  }

  function sortBy(column: number): void {
    descending = sortColumn === column ? !descending : false;
    sortColumn = column;
    headers.forEach((header, index) => header.setAttribute('aria-sort', index !== column ? 'none' : descending ? 'descending' : 'ascending'));
    status.textContent = 'Sorting…';
    // Sort after the next frame, so that the status shows during a long sort.
    requestAnimationFrame(() => requestAnimationFrame(refresh));
  }

  function csv(): Blob {
    // RFC 4180 quoting; a cell a spreadsheet would run as a formula gets a leading ' (cli/output.ts, csvField).
    const quote = (field: string): string => {
      const cell = /^[=+\-@\t\r]/.test(field) ? `'${field}` : field;
      return /[",\r\n]/.test(cell) || cell !== field ? `"${cell.replace(/"/g, '""')}"` : cell;
    };
    const parts = ['loc,lastmod,file,changefreq,priority,images,alternates,flags\r\n'];
    const total = shown();
    for (let chunkStart = 0; chunkStart < total; chunkStart += 10000) {
      const lines: string[] = [];
      for (let position = chunkStart; position < Math.min(total, chunkStart + 10000); position++) {
        const values = fields(rowAt(position));
        values[2] = fileNames[Number(values[2])] ?? values[2] ?? '';
        lines.push(values.map(quote).join(',') + '\r\n');
      }
      parts.push(lines.join(''));
    }
    return new Blob(parts, { type: 'text/csv;charset=utf-8' });
  }

  // On paper every folded table is shown: a closed <details> prints as its summary alone.
  const folded: Elem[] = [];
  addEventListener('beforeprint', () => {
    for (const details of Array.from(document.querySelectorAll('details:not([open])'))) { details.open = true; folded.push(details); }
  });
  addEventListener('afterprint', () => { for (const details of folded.splice(0)) details.open = false; });

  unpack().then(() => {
    filterInput.disabled = false;
    headers.forEach((header, column) => header.querySelectorAll('button')[0]?.addEventListener('click', () => sortBy(column)));
    filterInput.addEventListener('input', () => {
      query = filterInput.value;
      refresh();
    });
    previous.addEventListener('click', () => { page--; draw(); });
    next.addEventListener('click', () => { page++; draw(); });
    pageSize.addEventListener('change', () => { page = 0; draw(); });
    only.addEventListener('change', refresh);
    only.disabled = false;
    csvLink.addEventListener('click', () => {
      // Made when asked: the link's download then takes the rows the filter shows at that moment.
      if (csvLink.href.startsWith('blob:')) URL.revokeObjectURL(csvLink.href);
      csvLink.href = URL.createObjectURL(csv());
    });
    csvLink.hidden = false;
    // A directory's link fills the filter with its prefix; the link itself then goes to the table.
    for (const link of Array.from(document.querySelectorAll('a[data-filter]'))) {
      link.addEventListener('click', () => {
        filterInput.value = link.dataset.filter ?? '';
        query = filterInput.value;
        refresh();
      });
    }
    draw();
    document.documentElement.dataset.rows = 'ready';
    performance.mark('sitemapkit-rows-ready');
  }, (error: unknown) => {
    status.textContent = `The URL table could not be unpacked: ${String(error)}`;
    document.documentElement.dataset.rows = 'failed';
  });
}
