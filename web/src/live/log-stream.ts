import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';

export interface StreamedLine {
  line: number;
  step: string;
  stream: 'stdout' | 'stderr';
  text: string;
  at: string;
}

export type LogStreamState =
  | { mode: 'connecting' | 'live'; lines: StreamedLine[] }
  | { mode: 'ended'; lines: StreamedLine[]; status: string }
  /** The stream is not available (refused, or not served): the caller polls instead. */
  | { mode: 'unavailable'; lines: StreamedLine[] };

/**
 * A running deployment's log as it is written: server-sent events from
 * `GET /api/v1/deployments/<id>/logs/stream` (`event: line` with the line as JSON, its number as
 * the event id, so the browser's reconnection resumes after the last line it saw through
 * Last-Event-ID; `event: end` with the final status). When the stream cannot be opened at all the
 * state says `unavailable` and the page polls `deploymentLogs` instead.
 */
export function useLogStream(deploymentId: string, enabled: boolean, keep: number): LogStreamState {
  const queryClient = useQueryClient();
  const [state, setState] = useState<LogStreamState>({ mode: 'connecting', lines: [] });
  useEffect(() => {
    if (!enabled) return;
    setState({ mode: 'connecting', lines: [] });
    const source = new EventSource(
      `/api/v1/deployments/${encodeURIComponent(deploymentId)}/logs/stream`,
    );
    let opened = false;
    source.onopen = () => {
      opened = true;
      setState((s) => (s.mode === 'connecting' ? { mode: 'live', lines: s.lines } : s));
    };
    source.addEventListener('line', (event) => {
      const line = parseLine((event as MessageEvent<string>).data);
      if (!line) return;
      setState((s) => {
        const last = s.lines[s.lines.length - 1];
        if (last && last.line >= line.line) return s;
        return { ...s, lines: [...s.lines, line].slice(-keep) };
      });
    });
    source.addEventListener('end', (event) => {
      source.close();
      const status = parseEnd((event as MessageEvent<string>).data);
      setState((s) => ({ mode: 'ended', lines: s.lines, status }));
      void queryClient.invalidateQueries({ queryKey: ['deploymentDetails', deploymentId] });
    });
    source.onerror = () => {
      // Before any answer, or refused for good (a non-200 closes an EventSource): poll instead.
      if (!opened || source.readyState === EventSource.CLOSED) {
        source.close();
        setState((s) => ({ mode: 'unavailable', lines: s.lines }));
      }
    };
    return () => source.close();
  }, [deploymentId, enabled, keep, queryClient]);
  return state;
}

function parseLine(raw: string): StreamedLine | null {
  try {
    const l = JSON.parse(raw) as Partial<StreamedLine>;
    if (typeof l.line !== 'number' || typeof l.text !== 'string') return null;
    return {
      line: l.line,
      step: typeof l.step === 'string' ? l.step : '',
      stream: l.stream === 'stderr' ? 'stderr' : 'stdout',
      text: l.text,
      at: typeof l.at === 'string' ? l.at : '',
    };
  } catch {
    return null;
  }
}

function parseEnd(raw: string): string {
  try {
    const { status } = JSON.parse(raw) as { status?: unknown };
    return typeof status === 'string' ? status : 'ended';
  } catch {
    return 'ended';
  }
}
