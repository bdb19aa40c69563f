import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyseAppLog } from './analyser.js';
import { originLabel } from './rules.js';
import type { AppLogResult } from './types.js';

/** Logs pasted in public issues, quoted as pasted: see test/fixtures/applog/SOURCES.md. */
const real = (name: string) => analyseAppLog(readFileSync(join(process.cwd(), 'test/fixtures/applog', name), 'utf8'));
const stream = (result: AppLogResult) =>
  result.entries.map((entry) => [
    entry.kind,
    entry.name,
    entry.lines.join(','),
    entry.stages.join('|'),
    entry.issues.map((issue) => issue.code).join(','),
  ]);

describe('real logs: Firebase iOS SDK 10.x stage order (firebase-ios-sdk #13043)', () => {
  it('keeps one event when "Marking an event as real-time" comes after "Event logged" and the upload start', () => {
    const result = real('real-ios-10x-marking-after-logged.txt');
    expect(result.platform).toBe('ios');
    expect(stream(result)).toEqual([
      ['event', 'LoadStart', '1,2,3,4,5,6,7,8,9,10,11,12,13,14,20,21,22,23,24,25,26', 'marked debug|logged|marked real-time', ''],
      ['upload', 'Upload scheduled', '16', '', ''],
      ['upload', 'Starting data upload', '19', '', ''],
    ]);
    expect(result.summary.events).toBe(1);
    expect(result.entries[0]).toMatchObject({ origin: 'app', screen: 'ViewController' });
  });

  it('still merges the older order (marking between "Logging event" and "Event logged") and two events of one name', () => {
    const line = (code: string, text: string) => `10.27.0 - [FirebaseAnalytics][${code}] ${text}`;
    const result = analyseAppLog(
      [
        line('I-ACS023051', 'Logging event: origin, name, params: app, level_up, { level = 1; }'),
        line(
          'I-ACS023073',
          'Debug mode is enabled. Marking event as debug and real-time. Event name, parameters: level_up, { level = 1; }',
        ),
        line('I-ACS023072', 'Event logged. Event name, event params: level_up, { level = 1; }'),
        line('I-ACS023051', 'Logging event: origin, name, params: app, level_up, { level = 2; }'),
        line('I-ACS023072', 'Event logged. Event name, event params: level_up, { level = 2; }'),
        line('I-ACS023033', 'Starting data upload'),
        line(
          'I-ACS023105',
          'Event is not subject to real-time event count daily limit. Marking an event as real-time. Event name, parameters: level_up, { level = 1; }',
        ),
        line(
          'I-ACS023105',
          'Event is not subject to real-time event count daily limit. Marking an event as real-time. Event name, parameters: level_up, { level = 2; }',
        ),
      ].join('\n'),
    );
    expect(stream(result)).toEqual([
      ['event', 'level_up', '1,2,3,7', 'logging|marked debug|logged|marked real-time', ''],
      ['event', 'level_up', '4,5,8', 'logging|logged|marked real-time', ''],
      ['upload', 'Starting data upload', '6', '', ''],
    ]);
  });
});

describe('real logs: Xcode prints one message from two sinks (firebase-ios-sdk #227)', () => {
  it('counts the unified-log line and its ASL copy (tab-indented, 1.2 ms later) once', () => {
    const result = real('real-ios-xcode-two-sinks.txt');
    expect(stream(result)).toEqual([
      ['event', 'user_engagement', Array.from({ length: 16 }, (_, i) => i + 1).join(','), 'marked real-time', ''],
    ]);
    expect(result.entries[0]!.origin).toBe('auto');
  });

  it('keeps two copies from the same sink, or more than a second apart', () => {
    const line = (stamp: string, sink: string) =>
      `${stamp} MyApp[342${sink}] [Firebase/Analytics][I-ACS023087] User property set. Name, value: plan, pro`;
    const sameSink = analyseAppLog(
      [line('2017-09-04 11:59:26.536845+0300', ':27251'), line('2017-09-04 11:59:26.537845+0300', ':27251')].join('\n'),
    );
    expect(sameSink.entries).toHaveLength(2);
    const late = analyseAppLog(
      [line('2017-09-04 11:59:26.536845+0300', ':27251'), line('2017-09-04 11:59:28.538', '] <Debug>')].join('\n'),
    );
    expect(late.entries).toHaveLength(2);
  });
});

describe('real logs: SDK warnings become the errors they explain', () => {
  it('explains the iOS warnings of Capacitor, Cordova and native apps', () => {
    const result = real('real-ios-sdk-warnings.txt');
    expect(
      result.entries.map((entry) => [entry.kind, entry.lines.join(','), entry.issues[0]?.message.split(' (Firebase logged')[0]]),
    ).toEqual([
      ['error', '1', 'A screen name or class was nil (a setScreenName / logScreenView call without it): the screen_view is not logged.'],
      ['error', '2', 'A screen name or class was nil (a setScreenName / logScreenView call without it): the screen_view is not logged.'],
      ['error', '3', 'A parameter value was nil (null): Firebase drops the parameter.'],
      ['error', '4', 'value was sent without currency: Firebase discards value. Send a 3-letter ISO 4217 currency with every value.'],
      ['error', '5', 'An event was logged with an empty name: Firebase ignores it.'],
      [
        'error',
        '6,7,8,9,10,11',
        'A parameter value is neither a string nor a number (an array, a dictionary, a boolean or NSNull passed through a wrapper such as Flutter, React Native or Capacitor): Firebase drops the parameter, or the whole event.',
      ],
    ]);
    expect(result.entries[0]!.issues[0]!.message).toContain('(Firebase logged: Screen parameter value must be of type NSString: (nil))');
    expect(result.entries.every((entry) => entry.issues[0]?.subject === undefined)).toBe(true);
  });

  it('explains the SDK string "Event parameter value must be of type NSString or NSNumber" (constructed line)', () => {
    const result = analyseAppLog(
      '10.24.0 - [FirebaseAnalytics][I-ACS016000] Event parameter value must be of type NSString or NSNumber. Type: __NSArrayM',
      { platform: 'ios' },
    );
    expect(result.entries[0]!.issues[0]!.message).toMatch(/^A parameter value is neither a string nor a number/);
  });

  it('reports an event name with spaces whole (constructed: flutterfire #481 "Home Page Loaded" in Android\'s warning shape)', () => {
    const result = analyseAppLog(
      '05-08 10:00:03.324  8285  9277 E FA      : Name must consist of letters, digits or _ (underscores). Type, name: event, Home Page Loaded',
    );
    expect(result.entries[0]!.issues[0]!.subject).toBe('Home Page Loaded');
  });
});

describe('real logs: wrappers and their prefixes', () => {
  it('React Native: reads the FA errors among ReactNativeJS lines (react-native-firebase #96)', () => {
    const result = real('real-android-react-native.txt');
    expect(result.platform).toBe('android');
    expect(result.entries.map((entry) => [entry.kind, entry.time, entry.issues[0]?.subject])).toEqual([
      ['error', '05-08 10:00:03.324', '_sc'],
      ['error', '05-08 10:00:03.324', '_si'],
      ['error', '05-08 10:00:03.324', '_sn'],
    ]);
    expect(result.relevantLines).toBe(3);
  });

  it('Titanium: reads "[INFO]  FA: …" and "[ERROR] FA: …" (titanium-firebase-analytics #13, #17)', () => {
    const result = real('real-android-titanium.txt');
    expect(result.platform).toBe('android');
    expect(result.entries.map((entry) => [entry.kind, entry.name, entry.level])).toEqual([
      ['info', 'App measurement started', 'I'],
      ['info', 'Debug logging is off', 'I'],
      ['error', 'GoogleService failed to initialize, status', 'E'],
      ['error', 'Scheduler not set', 'E'],
      ['info', 'Faster debug mode is off', 'I'],
    ]);
    // FirebaseInstanceId's lines are another SDK's; the wrapped tails and the adb command line are not events.
    expect(result.relevantLines).toBe(6);
  });

  it('Flutter: strips `flutter run -v` prefixes on Android and iOS lines (constructed around real FA lines)', () => {
    const android = analyseAppLog(
      [
        '[ +153 ms] I/flutter (13788): tapped',
        '[  +12 ms] V/FA      (13788): Logging event (FE): level_up, Bundle[{ga_event_origin(_o)=app, level=2}]',
        '[        ] V/FA-SVC  (13788): Logging event: origin=app,name=level_up,params=Bundle[{ga_event_origin(_o)=app, level=2}]',
      ].join('\n'),
    );
    expect(android.platform).toBe('android');
    expect(stream(android)).toEqual([['event', 'level_up', '2,3', 'logged (FE)|logged (service)', '']]);
    const ios = analyseAppLog(
      [
        '[  +55 ms] flutter: tapped',
        '[   +3 ms] 10.24.0 - [FirebaseAnalytics][I-ACS023051] Logging event: origin, name, params: app, level_up, {',
        '[        ]     level = 2;',
        '[        ] }',
      ].join('\n'),
    );
    expect(ios.platform).toBe('ios');
    expect(ios.entries.map((entry) => [entry.name, entry.params.map((param) => `${param.name}=${param.value}`)])).toEqual([
      ['level_up', ['level=2']],
    ]);
  });
});

describe('real logs: screens, consent and origins', () => {
  it('explains "Screen exposed for less than 1000 ms. Event not sent" (firebase-android-sdk #4276)', () => {
    const result = real('real-android-screen-exposure.txt');
    expect(result.entries.map((entry) => [entry.kind, entry.name])).toEqual([
      ['info', 'Screen view requested'],
      ['info', 'Engagement not sent (screen shown < 1 s)'],
    ]);
    expect(result.entries[1]!.note).toMatch(
      /^Not an error: the SDK sends user_engagement \(_e\) only once a screen has been shown for at least 1 second/,
    );
    expect(result.summary.errors).toBe(0);
  });

  it('shows consent lines as consent-state changes, FE and service of one change as one entry', () => {
    const result = real('real-android-consent.txt');
    expect(
      result.entries.map((entry) => [entry.kind, entry.name, entry.params.map((param) => `${param.name}=${param.value}`).join(',')]),
    ).toEqual([
      ['consent', 'Storage consent', 'source=MANIFEST,ad_storage=denied,analytics_storage=denied'],
      ['consent', 'DMA consent', 'source=MANIFEST,ad_user_data=denied'],
    ]);
    expect(result.summary.consentChanges).toBe(2);
    const pair = analyseAppLog(
      [
        '05-01 10:00:00.100  1234  1260 V FA      : Setting storage consent(FE): source=API,ad_storage=granted,analytics_storage=granted',
        '05-01 10:00:00.150  1234  1280 V FA-SVC  : Setting storage consent for package com.example, source=API,ad_storage=granted,analytics_storage=granted',
        '05-01 10:00:05.000  1234  1260 V FA      : Setting storage consent(FE): source=API,ad_storage=denied,analytics_storage=denied',
      ].join('\n'),
    );
    expect(stream(pair)).toEqual([
      ['consent', 'Storage consent', '1,2', 'set (FE)|set (service)', ''],
      ['consent', 'Storage consent', '3', 'set (FE)', ''],
    ]);
  });

  it("labels origin=am (Mobile Ads SDK) and does not hold its ad_* events to the app's rules (constructed, AdMob answer 9755157)", () => {
    const result = analyseAppLog(
      [
        '07-22 11:25:40.100 V/FA-SVC  (23546): Logging event: origin=am,name=ad_query,params=Bundle[{ga_event_origin(_o)=am, ad_event_id=1}]',
        '07-22 11:25:41.100 V/FA-SVC  (23546): Logging event: origin=am,name=adunit_exposure,params=Bundle[{ga_event_origin(_o)=am, ga_screen(_sn)=Home, exposure_time=1200}]',
        '07-22 11:25:42.100 V/FA-SVC  (23546): Logging event: origin=fcm,name=notification_receive(_nr),params=Bundle[{ga_event_origin(_o)=fcm}]',
        '07-22 11:25:43.100 V/FA-SVC  (23546): Logging event: origin=app,name=ad_query,params=Bundle[{ga_event_origin(_o)=app}]',
      ].join('\n'),
    );
    expect(
      result.entries.map((entry) => [
        entry.name,
        entry.origin,
        originLabel(entry.origin!),
        entry.issues.map((issue) => issue.code).join(','),
      ]),
    ).toEqual([
      ['ad_query', 'am', 'Google Mobile Ads SDK', ''],
      ['adunit_exposure', 'am', 'Google Mobile Ads SDK', ''],
      ['notification_receive', 'fcm', 'Firebase Cloud Messaging', ''],
      ['ad_query', 'app', "the app's own code", 'event_name_reserved'],
    ]);
    expect(originLabel('xyz')).toBe('another SDK (xyz)');
  });

  it('does not report ga_screen in FA-SVC output as a reserved prefix, with or without its short name', () => {
    const result = analyseAppLog(
      [
        '07-22 11:25:39.816 V/FA-SVC  (23546): Logging event: origin=app,name=screen_view(_vs),params=Bundle[{ga_event_origin(_o)=app, ga_screen=Home, ga_screen_class=MainActivity, ga_screen_id(_si)=-1}]',
        '07-22 11:25:39.900 V/FA-SVC  (23546): Logging event: origin=app,name=promo_seen,params=Bundle[{ga_promo=1}]',
      ].join('\n'),
    );
    expect(result.entries.map((entry) => [entry.name, entry.issues.map((issue) => `${issue.code}:${issue.subject}`)])).toEqual([
      ['screen_view', []],
      ['promo_seen', ['param_name_reserved_prefix:ga_promo']],
    ]);
  });
});
