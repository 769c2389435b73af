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

/** `bidiControls`: characters whose escape a cell shows (page.ts). */
// eslint-disable-next-line max-lines-per-function -- page.ts inlines it with toString(): one self-contained function, its parts share the rows' state
export function reportClient(bidiControls: RegExp): void {
  const byId = (id: string): Elem => {
    const found = document.getElementById(id);
    if (found === null) throw new Error(`the report page has no #${id}`);
    return found;
  };
  const fileNames = (JSON.parse(byId('sitemapkit-model').textContent ?? '{}') as { files: { name: string }[] }).files.map((file) => file.name);
  const [filterInput, status, table, body, csvLink, previous, next, pageNumber, pageSize, only] = ['url-filter', 'url-status', 'url-table', 'url-rows', 'url-csv', 'url-previous', 'url-next', 'url-page', 'url-page-size', 'url-only']
    .map(byId) as [Elem, Elem, Elem, Elem, Elem, Elem, Elem, Elem, Elem, Elem];
  const headers = Array.from(table.querySelectorAll('thead th'));
  const count = (n: number): string => n.toLocaleString('en-US');
  const FLAG_BITS: Record<string, number> = { d: 1, e: 2, w: 4, f: 8, s: 16 };

  let text = '';
  let lowerText = '';
  let starts = new Uint32Array(1);
  let searchEnds = new Uint32Array(0);
  /** Each row's flags as bits (FLAG_BITS), so that "only rows with an error" reads no text. */
  let flagBits = new Uint8Array(0);
  let rowCount = 0;
  /** The rows the filter lets through, in the order shown (null: every row, in set order). */
  let view: Uint32Array | null = null;
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
    const withBase64 = Uint8Array as unknown as { fromBase64?: (text: string) => Uint8Array };
    let bytes: Uint8Array;
    if (typeof withBase64.fromBase64 === 'function') bytes = withBase64.fromBase64(base64);
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
    for (let lineStart = 0, newline = text.indexOf('\n'); newline !== -1; lineStart = newline + 1, newline = text.indexOf('\n', lineStart)) {
      // The filter looks at loc and lastmod, the fields before the second TAB.
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
    lowerText = text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
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
    // URL and notes as text; else numbers: dates as time (1969 a negative one), the file by name, changefreq from always to never; empty and unknown values last.
    const fileRank = new Map([...fileNames].sort().map((name, rank) => [name, rank]));
    const frequencies = new Map(['always', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'never'].map((value, rank) => [value, rank]));
    const key = (value: string): number => {
      const number = value === '' ? NaN
        : column === 1 ? Date.parse(value)
          : column === 2 ? (fileRank.get(fileNames[Number(value)] ?? '') ?? NaN)
            : column === 3 ? (frequencies.get(value) ?? NaN) : Number(value);
      return Number.isNaN(number) ? Infinity : number;
    };
    // Plain arrays: V8 sorts them with a comparator several times faster than a Uint32Array. The keys
    // of one column are all strings or all numbers: `<` orders either.
    const keys = Array.from({ length: rowCount }, (_, row) => (column === 0 || column === 7 ? field(row, column) : key(field(row, column)))) as number[];
    const order = Array.from({ length: rowCount }, (_, i) => i).sort((a, b) => ((keys[a] as number) < (keys[b] as number) ? -1 : (keys[a] as number) > (keys[b] as number) ? 1 : a - b));
    const sorted = Uint32Array.from(order);
    sortOrders.set(column, sorted);
    return sorted;
  }

  /** The rows that pass the filter and the "Show" choice, in the order of the sort. */
  function computeView(): void {
    const matches = filterInput.value === '' ? null : matchingRows(filterInput.value);
    const bit = FLAG_BITS[only.value] ?? 0;
    if (sortColumn < 0 && bit === 0) {
      view = matches;
      return;
    }
    const order = sortColumn < 0 ? null : sortOrder(sortColumn);
    const keep = new Uint8Array(rowCount).fill(matches === null ? 1 : 0);
    for (const row of matches ?? []) keep[row] = 1;
    const kept = new Uint32Array(matches?.length ?? rowCount);
    let length = 0;
    for (let i = 0; i < rowCount; i++) {
      const row = order === null ? i : (order[descending ? rowCount - 1 - i : i] as number);
      if (keep[row] === 1 && (bit === 0 || ((flagBits[row] as number) & bit) !== 0)) kept[length++] = row;
    }
    view = kept.subarray(0, length);
  }

  function cell(tag: string, content: string | Elem, className?: string): Elem {
    const element = document.createElement(tag);
    if (className !== undefined) element.setAttribute('class', className);
    element.append(typeof content === 'string' ? content.replace(bidiControls, encodeURIComponent) : content);
    return element;
  }

  function rowElement(row: number): Elem {
    const [loc = '', lastmod = '', file = '', changefreq = '', priority = '', images = '', alternates = '', flags = ''] = fields(row);
    const link = /^https?:\/\//i.test(loc) ? cell('a', loc) : undefined;
    link?.setAttribute('href', loc);
    link?.setAttribute('rel', 'noreferrer nofollow');
    const notes = [['d', 'duplicate'], ['e', 'error'], ['w', 'warning'], ['f', 'future lastmod'], ['s', 'reading stopped after it']].filter(([letter]) => flags.includes(letter as string)).map(([, note]) => note);
    const locCell = cell('th', link ?? loc, 'loc');
    locCell.setAttribute('scope', 'row');
    const tr = document.createElement('tr');
    tr.append(
      locCell, cell('td', lastmod), cell('td', fileNames[Number(file)] ?? file),
      cell('td', changefreq), cell('td', priority, 'n'), cell('td', images, 'n'), cell('td', alternates, 'n'), cell('td', notes.join(', '), flags.includes('e') ? 'bad' : ''),
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
    const query = filterInput.value;
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
    // The lines joined 10,000 at a time: a Blob of a million parts is slow to make.
    const parts = ['loc,lastmod,file,changefreq,priority,images,alternates,flags\r\n'];
    const lines: string[] = [];
    for (let position = 0; position < shown(); position++) {
      const values = fields(rowAt(position));
      values[2] = fileNames[Number(values[2])] ?? values[2] ?? '';
      if (lines.push(values.map(quote).join(',') + '\r\n') === 10000) parts.push(lines.splice(0).join(''));
    }
    return new Blob([...parts, lines.join('')], { type: 'text/csv;charset=utf-8' });
  }

  // On paper every folded table is shown: a closed <details> prints as its summary alone.
  const folded: Elem[] = [];
  addEventListener('beforeprint', () => {
    for (const details of Array.from(document.querySelectorAll('details:not([open])'))) { details.open = true; folded.push(details); }
  });
  addEventListener('afterprint', () => { for (const details of folded.splice(0)) details.open = false; });

  unpack().then(() => {
    headers.forEach((header, column) => header.querySelectorAll('button')[0]?.addEventListener('click', () => sortBy(column)));
    filterInput.addEventListener('input', refresh);
    only.addEventListener('change', refresh);
    previous.addEventListener('click', () => { page--; draw(); });
    next.addEventListener('click', () => { page++; draw(); });
    pageSize.addEventListener('change', () => { page = 0; draw(); });
    csvLink.addEventListener('click', () => {
      // Made when asked: the link's download then takes the rows the filter shows at that moment.
      if (csvLink.href.startsWith('blob:')) URL.revokeObjectURL(csvLink.href);
      csvLink.href = URL.createObjectURL(csv());
    });
    // A directory's link fills the filter with its prefix; the link itself then goes to the table.
    for (const link of Array.from(document.querySelectorAll('a[data-filter]'))) {
      link.addEventListener('click', () => {
        filterInput.value = link.dataset.filter ?? '';
        refresh();
      });
    }
    filterInput.disabled = only.disabled = csvLink.hidden = false;
    draw();
    document.documentElement.dataset.rows = 'ready';
    performance.mark('sitemapkit-rows-ready');
  }, (error: unknown) => {
    status.textContent = `The URL table could not be unpacked: ${String(error)}`;
    document.documentElement.dataset.rows = 'failed';
  });
}
