/** A one-line progress indicator on stderr, shown only when stderr is a TTY (long offline inputs). */
export class Progress {
  private last = 0;
  private readonly enabled: boolean;
  constructor(
    private readonly label: string,
    stream: NodeJS.WriteStream = process.stderr,
    private readonly out: NodeJS.WriteStream = stream,
  ) {
    this.enabled = stream.isTTY === true;
  }

  update(done: number, total?: number, extra = ''): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (now - this.last < 100) return;
    this.last = now;
    const width = 24;
    const bar = total && total > 0 ? `[${'#'.repeat(Math.round((done / total) * width)).padEnd(width, '.')}] ` : '';
    this.out.write(`\r${this.label} ${bar}${done}${total ? `/${total}` : ''} ${extra}`.padEnd(79).slice(0, 79));
  }

  done(): void {
    if (this.enabled) this.out.write('\r'.padEnd(80) + '\r');
  }
}
