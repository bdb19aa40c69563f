import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppLogAnalyser, analyseAppLog, detectPlatform } from './analyser.js';
import { parseLogcatLine } from './android.js';
import { buildExportDocument, exportFileName } from './export.js';
import { parseConsoleLine } from './ios.js';
import type { AppLogEntry, AppLogResult } from './types.js';

const fixture = (name: string) => readFileSync(join(process.cwd(), 'test/fixtures/applog', name), 'utf8');

/** The stream without params/items/messages, for asserting a whole fixture at a glance. */
const outline = (result: AppLogResult) =>
  result.entries.map((entry: AppLogEntry) => [
    entry.kind,
    entry.time,
    entry.lines.join(','),
    entry.name,
    entry.origin,
    entry.screen,
    entry.stages.join('|'),
    entry.issues.map((issue) => issue.code).join(','),
  ]);

describe('logcat line formats', () => {
  it.each([
    ['threadtime', '05-01 10:00:01.210  1234  1260 V FA      : Logging event (FE): x', '05-01 10:00:01.210', '1234', 'V', 'FA'],
    [
      'threadtime with year',
      '2024-05-01 10:00:01.210  1234  1260 D FA-SVC  : Logging event: x',
      '2024-05-01 10:00:01.210',
      '1234',
      'D',
      'FA-SVC',
    ],
    ['time', '05-01 10:00:01.210 V/FA      ( 1234): Logging event (FE): x', '05-01 10:00:01.210', '1234', 'V', 'FA'],
    ['time (old Eclipse colon)', '05-01 10:00:01.210: V/FA(1234): Logging event (FE): x', '05-01 10:00:01.210', '1234', 'V', 'FA'],
    ['brief', 'V/FA-SVC  (17047): Logging event (FE): x', null, '17047', 'V', 'FA-SVC'],
    ['brief without pid (Studio Run window)', 'V/FA: Logging event (FE): x', null, null, 'V', 'FA'],
    [
      'Android Studio (old)',
      '2019-02-20 21:49:06.368 17047-17047/com.example V/FA: Logging event (FE): x',
      '2019-02-20 21:49:06.368',
      '17047',
      'V',
      'FA',
    ],
    [
      'Android Studio (Dolphin+)',
      '2024-05-01 10:00:00.123  1234-1250  FA                      com.example                          V  Logging event (FE): x',
      '2024-05-01 10:00:00.123',
      '1234',
      'V',
      'FA',
    ],
  ])('reads %s', (_format, line, time, pid, level, tag) => {
    expect(parseLogcatLine(line)).toEqual({ time, pid, level, tag, message: expect.stringMatching(/^Logging event/) });
  });

  it('returns null for text that is not a logcat line', () => {
    expect(parseLogcatLine('--------- beginning of main')).toBeNull();
    expect(parseLogcatLine('hello world')).toBeNull();
  });
});

describe('iOS console line formats', () => {
  it('reads Xcode, Console.app and timestamp-less lines', () => {
    expect(
      parseConsoleLine('2022-10-10 09:11:14.371613-0500 App[51031:8041070] 9.6.0 - [FirebaseAnalytics][I-ACS023072] Event logged. x'),
    ).toEqual({
      time: '2022-10-10 09:11:14.371613',
      code: 'I-ACS023072',
      message: 'Event logged. x',
      sink: 'log',
    });
    expect(
      parseConsoleLine('default\t10:00:00.123456+0200\tShopApp\t10.24.0 - [FirebaseAnalytics][I-ACS023087] User property set. x'),
    ).toEqual({
      time: '10:00:00.123456',
      code: 'I-ACS023087',
      message: 'User property set. x',
      sink: 'log',
    });
    expect(parseConsoleLine('8.13.0 - [Firebase/Analytics][I-ACS023016] Analytics is ready to receive events')).toEqual({
      time: null,
      code: 'I-ACS023016',
      message: 'Analytics is ready to receive events',
      sink: 'log',
    });
    expect(
      parseConsoleLine(
        '2017-09-04 11:59:26.538 MyApp[342] <Debug> [Firebase/Analytics][I-ACS023105] Event is not subject to real-time event count daily limit.',
      ),
    ).toMatchObject({ time: '2017-09-04 11:59:26.538', code: 'I-ACS023105', sink: 'asl' });
    expect(parseConsoleLine('2022-10-10 09:11:14.371613-0500 App[1:2] something else')).toBeNull();
  });
});

describe('detectPlatform', () => {
  it('tells Android from iOS output, and says null for neither', () => {
    expect(detectPlatform(fixture('android-logcat-threadtime.txt'))).toBe('android');
    expect(detectPlatform(fixture('android-logcat-studio.txt'))).toBe('android');
    expect(detectPlatform(fixture('ios-console-xcode.txt'))).toBe('ios');
    expect(detectPlatform('V/FA( 1234): Logging event (FE): a, Bundle[{}]')).toBe('android');
    expect(detectPlatform('just some text\nand more')).toBeNull();
  });
});

describe('Android fixture (threadtime)', () => {
  const result = analyseAppLog(fixture('android-logcat-threadtime.txt'));

  it('decodes the whole stream in order, merging the FE / service / recorded stages of each event', () => {
    expect(result.platform).toBe('android');
    expect(outline(result)).toEqual([
      ['info', '05-01 10:00:00.512', '3', 'Debug-level message logging enabled', null, null, '', ''],
      ['info', '05-01 10:00:00.530', '4', 'App measurement started', null, null, '', ''],
      ['info', '05-01 10:00:00.531', '5', 'Faster debug mode is off', null, null, '', ''],
      [
        'screen',
        '05-01 10:00:01.210',
        '8,9,10,11',
        'screen_view',
        'auto',
        'MainActivity',
        'logged (FE)|logged (service)|saved|recorded',
        '',
      ],
      ['user_property', '05-01 10:00:02.000', '12,13', 'favorite_food', null, 'MainActivity', 'set (FE)|set (service)', ''],
      ['screen', '05-01 10:00:03.400', '15', 'screen_view', 'app', 'Checkout', 'logged (FE)', ''],
      ['event', '05-01 10:00:05.120', '16,17,18', 'purchase', 'app', 'Checkout', 'logged (FE)|logged (service)|recorded', ''],
      ['event', '05-01 10:00:06.000', '19', 'select_promotion', 'app', 'Checkout', 'logged (FE)', 'param_value_too_long'],
      ['error', '05-01 10:00:07.000', '20', 'Name is reserved', null, 'Checkout', '', 'firebase_logged_error'],
      ['error', '05-01 10:00:07.001', '21', 'error', 'auto', 'Checkout', 'logged (FE)', 'firebase_error_param'],
      [
        'user_property',
        '05-01 10:00:08.000',
        '22',
        'membership_level_description',
        null,
        'Checkout',
        'set (FE)',
        'user_property_name_too_long',
      ],
      ['upload', '05-01 10:00:10.000', '23,24,25,26,27,28,29', 'Uploading data', null, 'Checkout', '', ''],
      ['upload', '05-01 10:00:10.450', '30', 'Upload successful', null, 'Checkout', '', ''],
    ]);
    expect(result.entries.map((entry) => entry.shortName)).toEqual([
      null,
      null,
      null,
      '_vs',
      null,
      '_vs',
      null,
      null,
      null,
      '_err',
      null,
      null,
      null,
    ]);
  });

  it('decodes the purchase with long and short names, values holding commas and braces, and its items', () => {
    const purchase = result.entries[6];
    expect(purchase.params).toEqual([
      { name: 'ga_event_origin', shortName: '_o', value: 'app' },
      { name: 'ga_screen', shortName: '_sn', value: 'Checkout' },
      { name: 'ga_screen_class', shortName: '_sc', value: 'CheckoutFragment' },
      { name: 'ga_screen_id', shortName: '_si', value: '-4524658624580936392' },
      { name: 'currency', shortName: null, value: 'EUR' },
      { name: 'value', shortName: null, value: '59.98' },
      { name: 'transaction_id', shortName: null, value: 'T-1001' },
      { name: 'coupon', shortName: null, value: 'SUMMER, SALE {2024}' },
      { name: 'ga_debug', shortName: '_dbg', value: '1' },
      { name: 'ga_realtime', shortName: '_r', value: '1' },
    ]);
    expect(purchase.items).toEqual([
      [
        { name: 'item_id', shortName: null, value: 'SKU_1' },
        { name: 'item_name', shortName: null, value: 'T-shirt, blue' },
        { name: 'price', shortName: null, value: '19.99' },
        { name: 'quantity', shortName: null, value: '2' },
      ],
      [
        { name: 'item_id', shortName: null, value: 'SKU_2' },
        { name: 'item_name', shortName: null, value: 'Mug {large}' },
        { name: 'price', shortName: null, value: '20.0' },
        { name: 'quantity', shortName: null, value: '1' },
      ],
    ]);
  });

  it('surfaces Firebase’s own errors with their documented meaning', () => {
    expect(result.entries[8].issues).toEqual([
      {
        code: 'firebase_logged_error',
        severity: 'error',
        subject: 'session_start',
        message: 'Firebase logged: Name is reserved. Type, name: event, session_start',
      },
    ]);
    expect(result.entries[9].issues).toEqual([
      {
        code: 'firebase_error_param',
        severity: 'error',
        subject: 'session_start',
        message: 'Firebase error 13: Event name is reserved: the event was ignored (session_start).',
      },
    ]);
    expect(result.entries[7].issues[0]).toMatchObject({ subject: 'promotion_name', message: expect.stringContaining('130 characters') });
  });

  it('keeps user properties over time, unrecognised Firebase lines and a summary', () => {
    expect(result.userProperties).toEqual([
      {
        name: 'favorite_food',
        shortName: null,
        value: 'pizza',
        history: [{ entryIndex: 4, time: '05-01 10:00:02.000', line: 12, value: 'pizza' }],
      },
      {
        name: 'membership_level_description',
        shortName: null,
        value: 'gold',
        history: [{ entryIndex: 10, time: '05-01 10:00:08.000', line: 22, value: 'gold' }],
      },
    ]);
    expect(result.unrecognised).toEqual([
      { line: 6, text: '  adb shell setprop debug.firebase.analytics.app com.example.shop' },
      { line: 31, text: 'Connection attempt already in progress' },
    ]);
    expect(result.totalLines).toBe(31);
    expect(result.relevantLines).toBe(27);
    expect(result.summary).toEqual({
      events: 4,
      screens: 2,
      userPropertyChanges: 2,
      uploads: 2,
      consentChanges: 0,
      errors: 2,
      distinctEventNames: 3,
      entriesWithIssues: 4,
      issues: 4,
    });
  });

  it('gives the same result whatever the chunk boundaries (the page feeds slices)', () => {
    const text = fixture('android-logcat-threadtime.txt');
    for (const size of [1, 7, 100, 4096]) {
      const analyser = new AppLogAnalyser('android');
      for (let i = 0; i < text.length; i += size) analyser.push(text.slice(i, i + size));
      expect(analyser.finish()).toEqual(result);
    }
  });
});

describe('Android fixture (Android Studio format)', () => {
  it('decodes events and flags an invalid event name and a user property over both limits', () => {
    const result = analyseAppLog(fixture('android-logcat-studio.txt'));
    expect(outline(result)).toEqual([
      ['info', '2024-05-01 10:00:00.512', '1', 'Debug-level message logging enabled', null, null, '', ''],
      ['event', '2024-05-01 10:00:01.100', '3,4', 'level_up', 'app', 'GameActivity', 'logged (FE)|logged (service)', ''],
      ['event', '2024-05-01 10:00:02.000', '5', '3rd_party_login', 'app', 'GameActivity', 'logged (FE)', 'event_name_invalid_start'],
      [
        'user_property',
        '2024-05-01 10:00:03.000',
        '6',
        'player_tier_for_matchmaking',
        null,
        null,
        'set (FE)',
        'user_property_name_too_long,user_property_value_too_long',
      ],
      ['info', '2024-05-01 10:00:04.000', '7', 'Event not sent since app measurement is disabled', null, null, '', ''],
    ]);
    expect(result.entries[1].params.filter((param) => param.shortName === null)).toEqual([
      { name: 'level', shortName: null, value: '12' },
      { name: 'character', shortName: null, value: 'Ada' },
    ]);
  });

  it('joins a bundle that logcat split over several lines with the same header', () => {
    const head = '05-01 10:00:05.120  1234  1260 V FA      : ';
    const log = [
      `${head}Logging event (FE): purchase, Bundle[{ga_event_origin(_o)=app, currency=EUR, items=[Bundle[{item_id=SKU_1, item_na`,
      `${head}me=Shirt}]], value=9.5}]`,
      `${head}Setting user property (FE): plan, pro`,
    ].join('\n');
    const result = analyseAppLog(log);
    expect(result.entries.map((entry) => [entry.kind, entry.name, entry.lines])).toEqual([
      ['event', 'purchase', [1, 2]],
      ['user_property', 'plan', [3]],
    ]);
    expect(result.entries[0].items).toEqual([
      [
        { name: 'item_id', shortName: null, value: 'SKU_1' },
        { name: 'item_name', shortName: null, value: 'Shirt' },
      ],
    ]);
    expect(result.entries[0].params.at(-1)).toEqual({ name: 'value', shortName: null, value: '9.5' });
  });

  it('reads bare pasted messages and the brief format', () => {
    const result = analyseAppLog(
      [
        'Logging event (FE): select_content, Bundle[{_o=app, _ev=item_id, _err=4, content_type=SOME_TYPE}]',
        'V/FA-SVC  (17047): Logging event: origin=app,name=select_content,params=Bundle[{_o=app, _ev=item_id, _err=4, content_type=SOME_TYPE}]',
      ].join('\n'),
    );
    expect(result.platform).toBe('android');
    expect(result.entries).toHaveLength(1);
    expect(result.entries[0]).toMatchObject({ kind: 'event', name: 'select_content', origin: 'app', lines: [1, 2] });
    expect(result.entries[0].issues).toEqual([
      {
        code: 'firebase_error_param',
        severity: 'error',
        subject: 'item_id',
        message: 'Firebase error 4: Event parameter value is too long: the parameter was dropped (item_id).',
      },
    ]);
  });
});

describe('iOS fixture (Xcode console)', () => {
  const result = analyseAppLog(fixture('ios-console-xcode.txt'));

  it('decodes multi-line dictionaries and merges the logging / debug / logged stages', () => {
    expect(result.platform).toBe('ios');
    expect(outline(result)).toEqual([
      ['info', '2024-05-01 10:00:00.201234', '2', 'Analytics started', null, null, '', ''],
      ['info', '2024-05-01 10:00:00.201534', '3', 'Debug logging', null, null, '', ''],
      ['user_property', '2024-05-01 10:00:00.301234', '4', 'ga_session_id', null, null, 'set', ''],
      [
        'screen',
        '2024-05-01 10:00:00.401234',
        Array.from({ length: 19 }, (_, i) => i + 5).join(','),
        'screen_view',
        'auto',
        'ViewController',
        'logging|marked debug|logged',
        '',
      ],
      ['user_property', '2024-05-01 10:00:01.000000', '24', 'favorite_food', null, 'ViewController', 'set', ''],
      [
        'event',
        '2024-05-01 10:00:02.000000',
        [...Array.from({ length: 46 }, (_, i) => i + 25), 82].join(','),
        'purchase',
        'app',
        'CartViewController',
        'logging|logged|marked real-time',
        '',
      ],
      [
        'error',
        '2024-05-01 10:00:03.000000',
        '71',
        'Event name is reserved and cannot be used',
        null,
        'ViewController',
        '',
        'firebase_logged_error',
      ],
      [
        'event',
        '2024-05-01 10:00:04.000000',
        '72,73,74,75,76,77,78',
        'share_recipe_with_friends_via_messages_app',
        'app',
        'RecipeViewController',
        'logging',
        'event_name_too_long',
      ],
      ['upload', '2024-05-01 10:00:05.000000', '79', 'Upload scheduled', null, 'ViewController', '', ''],
      ['upload', '2024-05-01 10:00:08.100000', '80', 'Uploading data', null, 'ViewController', '', ''],
      ['upload', '2024-05-01 10:00:08.300000', '81', 'Upload successful', null, 'ViewController', '', ''],
    ]);
    expect(result.entries[2]).toMatchObject({ shortName: '_sid', value: '1714550400' });
    expect(result.entries[6].issues[0]).toMatchObject({ subject: 'app_open' });
    expect(result.unrecognisedCount).toBe(0);
  });

  it('decodes the purchase params and items, with quoted strings and escapes', () => {
    const purchase = result.entries[5];
    expect(purchase.params).toEqual([
      { name: 'currency', shortName: null, value: 'USD' },
      { name: 'ga_event_origin', shortName: '_o', value: 'app' },
      { name: 'ga_screen_class', shortName: '_sc', value: 'CartViewController' },
      { name: 'ga_screen_id', shortName: '_si', value: '-8451245235225323403' },
      { name: 'transaction_id', shortName: null, value: 'T-2001' },
      { name: 'value', shortName: null, value: '59.98' },
      { name: 'ga_debug', shortName: '_dbg', value: '1' },
      { name: 'ga_realtime', shortName: '_r', value: '1' },
    ]);
    expect(purchase.items).toEqual([
      [
        { name: 'item_id', shortName: null, value: 'SKU_1' },
        { name: 'item_name', shortName: null, value: 'Blue T-shirt; size M' },
        { name: 'price', shortName: null, value: '19.99' },
        { name: 'quantity', shortName: null, value: '2' },
      ],
      [
        { name: 'item_id', shortName: null, value: 'SKU_2' },
        { name: 'item_name', shortName: null, value: 'Mug (large) "classic"' },
        { name: 'price', shortName: null, value: '20' },
        { name: 'quantity', shortName: null, value: '1' },
      ],
    ]);
  });

  it('gives the same result whatever the chunk boundaries', () => {
    const text = fixture('ios-console-xcode.txt');
    const analyser = new AppLogAnalyser('ios');
    for (let i = 0; i < text.length; i += 13) analyser.push(text.slice(i, i + 13));
    expect(analyser.finish()).toEqual(result);
  });
});

describe('no Firebase lines', () => {
  it('gives an empty stream and counts nothing as relevant', () => {
    const result = analyseAppLog(
      '05-01 10:00:00.100  1234  1234 I ActivityManager: Start proc\n05-01 10:00:01.002  1234  1234 D OpenGLRenderer: Swap\n',
    );
    expect(result.entries).toEqual([]);
    expect(result.relevantLines).toBe(0);
    expect(result.totalLines).toBe(2);
  });
});

describe('buildExportDocument', () => {
  it('is a pure, complete JSON document of the analysis', () => {
    const result = analyseAppLog(fixture('android-logcat-studio.txt'));
    const document = buildExportDocument(result, { generatedAt: '2024-05-01T12:00:00.000Z', source: 'android-logcat-studio.txt' });
    expect(document).toMatchObject({
      format: 'hitscope.applog',
      version: 1,
      generatedAt: '2024-05-01T12:00:00.000Z',
      source: 'android-logcat-studio.txt',
      platform: 'android',
      lines: { total: 7, firebase: 6, unrecognised: 0 },
      summary: result.summary,
    });
    expect(document.entries).toHaveLength(5);
    expect(document.entries[1]).toMatchObject({
      name: 'level_up',
      params: expect.arrayContaining([{ name: 'level', shortName: null, value: '12' }]),
    });
    expect(JSON.parse(JSON.stringify(document))).toEqual(document);
    expect(buildExportDocument(result, { generatedAt: '2024-05-01T12:00:00.000Z', source: 'android-logcat-studio.txt' })).toEqual(document);
    expect(exportFileName(result, '2024-05-01T12:00:00.000Z')).toBe('applog-android-2024-05-01T12-00-00.json');
  });
});

describe('other Firebase lines', () => {
  it('classifies Android uploads, info lines and Firebase warnings in the time format', () => {
    const result = analyseAppLog(
      [
        '05-01 10:00:00.100 V/FA      ( 1234): Debug-level message logging enabled',
        '05-01 10:00:00.200 W/FA      ( 1234): Param value too long. Param name, value length: promotion_name, 130',
        '05-01 10:00:00.300 E/FA      ( 1234): Invalid event name. Event will not be logged (FE): 1st-open',
        '05-01 10:00:00.400 V/FA-SVC  ( 1234): Upload successful',
        '05-01 10:00:00.500 V/FA-SVC  ( 1234): Upload scheduled in approximately ms: 4823',
        '05-01 10:00:00.600 I/FA      ( 1234): Event not sent since app measurement is disabled',
        '05-01 10:00:00.700 V/FA      ( 1234): Removing user property (FE): favorite_food',
      ].join('\n'),
    );
    expect(result.entries.map((entry) => [entry.kind, entry.name, entry.issues[0]?.subject ?? null])).toEqual([
      ['info', 'Debug-level message logging enabled', null],
      ['error', 'Param value too long', null],
      ['error', 'Invalid event name', '1st-open'],
      ['upload', 'Upload successful', null],
      ['upload', 'Upload scheduled', null],
      ['info', 'Event not sent since app measurement is disabled', null],
      ['user_property', 'favorite_food', null],
    ]);
    expect(result.userProperties).toEqual([
      {
        name: 'favorite_food',
        shortName: null,
        value: null,
        history: [{ entryIndex: 6, time: '05-01 10:00:00.700', line: 7, value: null }],
      },
    ]);
  });

  it('merges iOS "Setting user property" and "User property set" and reads Console.app lines', () => {
    const result = analyseAppLog(
      [
        'default\t10:00:00.100000+0200\tShopApp\t10.24.0 - [FirebaseAnalytics][I-ACS023080] Setting user property. Name, value: favorite_food, pizza',
        'default\t10:00:00.110000+0200\tShopApp\t10.24.0 - [FirebaseAnalytics][I-ACS023087] User property set. Name, value: favorite_food, pizza',
        'default\t10:00:00.200000+0200\tShopApp\t10.24.0 - [FirebaseAnalytics][I-ACS023051] Logging event: origin, name, params: app, level_up, { level = 3; }',
      ].join('\n'),
    );
    expect(result.platform).toBe('ios');
    expect(result.entries.map((entry) => [entry.kind, entry.name, entry.lines, entry.stages])).toEqual([
      ['user_property', 'favorite_food', [1, 2], ['setting', 'set']],
      ['event', 'level_up', [3], ['logging']],
    ]);
    expect(result.entries[1].params).toEqual([{ name: 'level', shortName: null, value: '3' }]);
  });
});

describe('capture quirks', () => {
  it('ignores a byte-order mark, Windows line ends and `adb logcat -v color` escapes', () => {
    const line = '05-01 10:00:01.100  1234  1260 V FA      : Logging event (FE): level_up, Bundle[{ga_event_origin(_o)=app, level=2}]';
    const plain = analyseAppLog(`${line}\n`);
    const quirky = analyseAppLog(`\uFEFF\u001b[38;5;75m${line}\u001b[0m\r\n`);
    expect(quirky.entries).toEqual(plain.entries);
    expect(quirky.entries[0]).toMatchObject({
      name: 'level_up',
      params: [
        { name: 'ga_event_origin', shortName: '_o', value: 'app' },
        { name: 'level', shortName: null, value: '2' },
      ],
    });
  });
});

describe('stages of one event', () => {
  // The fixture's two screen_views (the SDK's own for MainActivity, the app's for CheckoutFragment),
  // with the service's line for the first one missing, as when a logcat filter or a full buffer drops
  // it: the service's line of the second continues the second, not the oldest screen_view still open.
  const log = [
    '05-01 10:00:01.210  1234  1260 V FA      : Logging event (FE): screen_view(_vs), Bundle[{ga_event_origin(_o)=auto, ga_previous_screen(_pn)=null, ga_previous_class(_pc)=null, ga_previous_id(_pi)=null, ga_screen_class(_sc)=MainActivity, ga_screen_id(_si)=-4524658624580936391}]',
    '05-01 10:00:03.400  1234  1260 V FA      : Logging event (FE): screen_view(_vs), Bundle[{ga_event_origin(_o)=app, ga_screen(_sn)=Checkout, ga_screen_class(_sc)=CheckoutFragment, ga_previous_class(_pc)=MainActivity, ga_screen_id(_si)=-4524658624580936392}]',
    '05-01 10:00:03.450  1234  1290 V FA-SVC  : Logging event: origin=app,name=screen_view(_vs),params=Bundle[{ga_event_origin(_o)=app, ga_screen(_sn)=Checkout, ga_screen_class(_sc)=CheckoutFragment, ga_previous_class(_pc)=MainActivity, ga_screen_id(_si)=-4524658624580936392}]',
    "05-01 10:00:03.460  1234  1290 V FA-SVC  : Event recorded: Event{appId='com.example.shop', name='screen_view(_vs)', params=Bundle[{ga_event_origin(_o)=app, ga_screen(_sn)=Checkout, ga_screen_class(_sc)=CheckoutFragment, ga_previous_class(_pc)=MainActivity, ga_screen_id(_si)=-4524658624580936392, ga_debug(_dbg)=1, ga_realtime(_r)=1}]}",
  ].join('\n');

  it('keeps two screen_views of different origin and screen class apart, each with its own lines and stages', () => {
    expect(outline(analyseAppLog(log))).toEqual([
      ['screen', '05-01 10:00:01.210', '1', 'screen_view', 'auto', 'MainActivity', 'logged (FE)', ''],
      ['screen', '05-01 10:00:03.400', '2,3,4', 'screen_view', 'app', 'Checkout', 'logged (FE)|logged (service)|recorded', ''],
    ]);
  });

  it('still merges the stages of one screen_view whose lines agree', () => {
    const result = analyseAppLog(fixture('android-logcat-threadtime.txt'));
    const first = result.entries.find((entry) => entry.name === 'screen_view')!;
    expect(first.stages).toEqual(['logged (FE)', 'logged (service)', 'saved', 'recorded']);
    expect(first.lines).toEqual([8, 9, 10, 11]);
  });

  it('joins an iOS real-time marking only to a screen_view of the same screen', () => {
    const ios = [
      '2024-05-01 10:00:00.401234+0200 ShopApp[5123:201460] 10.24.0 - [FirebaseAnalytics][I-ACS023051] Logging event: origin, name, params: auto, screen_view, {',
      '    ga_event_origin (_o) = auto;',
      '    ga_screen_class (_sc) = UIViewController;',
      '}',
      '2024-05-01 10:00:00.501234+0200 ShopApp[5123:201460] 10.24.0 - [FirebaseAnalytics][I-ACS023051] Logging event: origin, name, params: app, screen_view, {',
      '    ga_event_origin (_o) = app;',
      '    ga_screen_class (_sc) = CartViewController;',
      '}',
      '2024-05-01 10:00:00.502234+0200 ShopApp[5123:201470] 10.24.0 - [FirebaseAnalytics][I-ACS023073] Debug mode is enabled. Marking event as debug and real-time. Event name, parameters: screen_view, {',
      '    ga_debug (_dbg) = 1;',
      '    ga_event_origin (_o) = app;',
      '    ga_realtime (_r) = 1;',
      '    ga_screen_class (_sc) = CartViewController;',
      '}',
    ].join('\n');
    const screens = analyseAppLog(ios, { platform: 'ios' }).entries.filter((entry) => entry.name === 'screen_view');
    expect(screens.map((entry) => [entry.screen, entry.stages.length > 1])).toEqual([
      ['UIViewController', false],
      ['CartViewController', true],
    ]);
  });
});
