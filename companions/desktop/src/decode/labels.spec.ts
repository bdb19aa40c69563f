import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appName, lineLabel } from './labels.js';

const lines = (path: string) => readFileSync(join(process.cwd(), path), 'utf8').split('\n');

describe('the app of a log line', () => {
  it('labels Android lines by their pid, and names the pid once the device said which app it is', () => {
    const purchase = lines('test/fixtures/applog/android-logcat-threadtime.txt').find((line) =>
      line.includes('Logging event (FE): purchase'),
    )!;
    expect(lineLabel(purchase, 'android')).toBe('pid:1234');
    expect(appName('pid:1234', { 1234: 'com.example.shop' })).toBe('com.example.shop');
    expect(appName('pid:1234', {})).toBe('pid 1234');
    expect(appName('pid:2345', { 2345: 'com.google.android.gms.persistent' })).toBe(
      'Google Play services (com.google.android.gms.persistent)',
    );
    expect(lineLabel('05-01 10:00:01.002  1234  1234 D OpenGLRenderer: Swap behavior 1', 'android')).toBeNull();
  });

  it('labels iOS lines by their process in idevicesyslog, log stream and Xcode forms', () => {
    const syslog = lines('companions/desktop/test/fixtures/idevicesyslog-shop.txt')[0];
    expect(lineLabel(syslog, 'ios')).toBe('ShopApp');
    const xcode = lines('test/fixtures/applog/ios-console-xcode.txt')[1];
    expect(lineLabel(xcode, 'ios')).toBe('ShopApp');
    expect(
      lineLabel(
        '2024-05-01 10:00:00.123 Df ShopApp[5123:2014] [com.google] 11.0.0 - [FirebaseAnalytics][I-ACS023007] Analytics started',
        'ios',
      ),
    ).toBe('ShopApp');
    expect(lineLabel('    ga_event_origin (_o) = auto;', 'ios')).toBeNull();
  });

  it('labels a file before its platform is known by whichever form the line has', () => {
    expect(lineLabel('05-01 10:00:01.210  1234  1260 V FA      : Logging event (FE): x, Bundle[{}]', null)).toBe('pid:1234');
    expect(lineLabel('May  1 10:00:00 ShopApp(FirebaseAnalytics)[5123] <Notice>: 10.24.0 - [FirebaseAnalytics][I-ACS023007] x', null)).toBe(
      'ShopApp',
    );
  });
});
