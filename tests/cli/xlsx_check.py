#!/usr/bin/env python3
"""The PerfDoc workbook and RegInfo files of `tpuprof convert IN OUT --enable_doc
--csv --registers`, read back with a real reader (openpyxl) and compared with
the decoder's own rows (events.csv of the same run, with its register columns).

Usage: xlsx_check.py TPUPROF SAMPLES_DIR WORK_DIR
Prints one line per check group and "N passed, M failed"; exits 1 on a failure.
"""
import csv
import os
import re
import shutil
import subprocess
import sys

import openpyxl

TIU_KEYS = ['Engine Id', 'Core Id', 'Global Idx', 'Cmd Id', 'Function Type', 'Function Name',
            'Alg Cycle', 'Asic Cycle', 'Start Cycle', 'End Cycle', 'Avg Cycle Last 200',
            'Alg Ops', 'uArch Ops', 'uArch Rate', 'Data Type']
DMA_KEYS = ['Engine Id', 'Core Id', 'Global Idx', 'Cmd Id', 'Function Type', 'Function Name',
            'DMA data size(B)', 'Start Cycle', 'End Cycle', 'Asic Cycle', 'Stall Cycle',
            'DDR Bandwidth(GB/s)', 'L2M Bandwidth(GB/s)', 'Direction', 'Data Type']
SUMMARY_COLS = ['CoreId', 'TiuWorkingRatio', 'Parallelism', 'Concurrency', 'totalTime(us)',
                'totalTiuCycle', 'totalAlgCycle', 'totalAlgOps', 'totalUArchOps', 'uArchURate',
                'totalGdmaCycle']

failures = []
passed = 0


def check(cond, what):
    global passed
    if cond:
        passed += 1
    else:
        failures.append(what)
        print('FAIL:', what)


def queues_of(csv_path):
    """events.csv rows of device 0 by sheet name, in file (= trace) order."""
    q = {}
    with open(csv_path, newline='') as f:
        for r in csv.DictReader(f):
            if r['device'] != '0':
                continue
            eng = r['engine']
            unit = r['port'] if eng == 'CDMA' else r['core']
            q.setdefault(f'{eng}_{unit}', []).append(r)
    return q


def sheet_order(names):
    """bigTpuProfile's order: per core TIU, GDMA, SDMA; then the CDMA ports."""
    rank = {'TIU': 0, 'GDMA': 1, 'SDMA': 2}

    def key(n):
        eng, unit = n.rsplit('_', 1)
        return (1, int(unit), 0) if eng == 'CDMA' else (0, int(unit), rank[eng])
    return sorted(names, key=key)


def check_sheet(label, ws, name, rows):
    cells = list(ws.iter_rows(values_only=True))
    tiu = name.startswith('TIU')
    head = next(i for i, r in enumerate(cells) if r and r[0] == 'Engine Id')
    if not tiu:
        check(head == 5, f'{label} {name}: headers in row 6 (found {head + 1})')
    header = [c for c in cells[head] if c is not None]
    keys = TIU_KEYS if tiu else DMA_KEYS
    if 'Layer Id' in header:  # shown when the dump names layers (bigTpuProfile: with global info)
        keys = keys[:4] + ['Layer Id', 'Layer Name'] + keys[4:]
    check(header[:len(keys)] == keys, f'{label} {name}: key columns {header[:len(keys)]}')
    data = cells[head + 1:]
    check(len(data) == len(rows), f'{label} {name}: {len(data)} rows, decoder {len(rows)}')
    col = {h: i for i, h in enumerate(cells[head]) if h is not None}
    reg = 'des_tsk_typ' if tiu else 'cmd_type'
    bad = 0
    regs_seen = 0
    for k, (x, r) in enumerate(zip(data, rows)):
        ok = (x[col['Cmd Id']] == int(r['cmd_id']) and x[col['Start Cycle']] == int(r['start_cycle'])
              and x[col['End Cycle']] == int(r['end_cycle'])
              and x[col['Asic Cycle']] == int(r['end_cycle']) - int(r['start_cycle']) + 1
              and x[col['Global Idx']] == k)
        if 'Layer Id' in col:
            ok = ok and x[col['Layer Id']] == (int(r['layer_id']) if r['layer_id'] else None)
        if reg in col and x[col[reg]] is not None:
            regs_seen += 1
            ok = ok and r['tsk_typ'] != '' and x[col[reg]] == int(r['tsk_typ'])
        if not ok:
            bad += 1
            if bad < 3:
                print(f'  {name} row {k}: {x[:12]} vs {r}')
    check(bad == 0, f'{label} {name}: {bad} rows differ from the decoder')
    return regs_seen, data, col


def check_summary(label, ws, q):
    cells = list(ws.iter_rows(values_only=True))
    check(str(cells[0][0]).startswith('Platform: '), f'{label}: Engine Summary platform cell')
    check(list(cells[4][:len(SUMMARY_COLS)]) == SUMMARY_COLS, f'{label}: Engine Summary header')
    cores = sorted({int(n.split('_')[1]) for n in q if not n.startswith('CDMA')})
    for c in cores:
        row = cells[5 + c]
        tiu = sum(int(r['end_cycle']) - int(r['start_cycle']) + 1 for r in q.get(f'TIU_{c}', []))
        check(row[0] == c and row[5] == tiu, f'{label}: core {c} totalTiuCycle {row[5]} vs {tiu}')
    check(cells[5 + len(cores)][0] == 'Overall', f'{label}: Overall row')


def check_reginfo(label, out, q):
    files = sorted(f for f in os.listdir(out) if 'RegInfo_' in f)
    want = []
    for n in q:
        eng, unit = n.rsplit('_', 1)
        want.append({'TIU': 'tiu', 'GDMA': 'tdma', 'SDMA': 'tdma', 'CDMA': 'cdma'}[eng]
                    + f'RegInfo_{unit}.txt')
    check(files == sorted(set(want)), f'{label}: RegInfo files {files}')
    for f in files:
        text = open(os.path.join(out, f)).read()
        check(text.startswith('__CHIP_ARCH_ARGS__\n\tChip Arch: '), f'{label} {f}: arch header')
        unit = re.search(r'_(\d+)\.txt', f).group(1)
        kind = f.split('RegInfo')[0]
        names = {'tiu': ['TIU'], 'tdma': ['GDMA', 'SDMA'], 'cdma': ['CDMA']}[kind]
        rows = [r for n in names for r in q.get(f'{n}_{unit}', [])]
        starts = [int(s) for s in re.findall(r'\n\tStart Cycle: (\d+)\n', text)]
        check(starts == [int(r['start_cycle']) for r in rows],
              f'{label} {f}: {len(starts)} blocks vs {len(rows)} decoder rows')


def check_instr_world(label, path, q):
    """PerfDoc/<OUT>.csv: every command of device 0, sorted as the vendor sorts them."""
    with open(path, newline='') as f:
        rows = list(csv.DictReader(f))
    header = list(rows[0].keys()) if rows else []
    check(header[:4] == TIU_KEYS[:4] and 'Direction' in header,
          f'{label}: Instr World header {header[:6]}')
    eid = {'TIU': 0, 'GDMA': 1, 'SDMA': 3, 'CDMA': 4}
    want = sorted(((int(r['start_cycle']), int(r['end_cycle']), int(r['cmd_id']), eid[r['engine']])
                   for v in q.values() for r in v))
    got = [(int(r['Start Cycle']), int(r['End Cycle']), int(r['Cmd Id']), int(r['Engine Id']))
           for r in rows]
    check(got == want, f'{label}: Instr World {len(got)} rows in vendor order vs {len(want)}')


def run(label, tp, dump, work):
    out = os.path.join(work, label)
    shutil.rmtree(out, ignore_errors=True)
    subprocess.run([tp, '-q', 'convert', dump, out, '--enable_doc', '--csv', '--registers'],
                   check=True)
    q = queues_of(os.path.join(out, 'events.csv'))
    book = os.path.join(out, 'PerfDoc', label + '.xlsx')
    check(os.path.isfile(book), f'{label}: PerfDoc/{label}.xlsx written')
    wb = openpyxl.load_workbook(book, read_only=True)
    expect = ['Engine Summary'] + sheet_order(q.keys())
    check(wb.sheetnames == expect, f'{label}: sheets {wb.sheetnames}, expected {expect}')
    regs = 0
    for name in wb.sheetnames[1:]:
        if name in q:
            regs += check_sheet(label, wb[name], name, q[name])[0]
    check(regs > 0, f'{label}: register columns filled ({regs} cells of des_tsk_typ/cmd_type)')
    check_summary(label, wb['Engine Summary'], q)
    check_reginfo(label, out, q)
    check_instr_world(label, os.path.join(out, 'PerfDoc', label + '.csv'), q)
    print(f'ok: {label}: {len(wb.sheetnames)} sheets, {sum(len(v) for v in q.values())} rows')


def main():
    tp, samples, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    run('bm1684x', tp, os.path.join(samples, 'bm1684x/bmprofile_data-1'), work)
    run('bm1690', tp, os.path.join(samples, 'bm1690/cdm_profile_data_dev0'), work)
    aks = os.path.join(work, 'aks_in')
    shutil.rmtree(aks, ignore_errors=True)
    subprocess.run([tp, '-q', 'synth', '--chip', 'aks', '--mode', '2', '--records', '500',
                    '--cores', '2', '--cdma-ports', '2', '-o', aks], check=True)
    run('aks_synth', tp, aks, work)
    print(f'{passed} passed, {len(failures)} failed')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
