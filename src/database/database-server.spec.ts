import { choosePool, isFerretDbBuildInfo, uriMaxPoolSize } from './database-server.js';

describe('isFerretDbBuildInfo', () => {
  it('recognises FerretDB 1.x (ferretdbVersion/ferretdbFeatures) and 2.x (a ferretdb section)', () => {
    // What FerretDB 1.24 (SQLite, the embedded database) answers, abridged.
    expect(isFerretDbBuildInfo({ version: '7.0.42', ferretdbVersion: 'unknown', ferretdbFeatures: {}, ok: 1 })).toBe(true);
    expect(isFerretDbBuildInfo({ version: '7.0.77', ferretdb: { version: 'v2.5.0' }, ok: 1 })).toBe(true);
  });

  it('takes anything else for MongoDB', () => {
    expect(isFerretDbBuildInfo({ version: '8.0.4', gitVersion: 'bf9bd1a2', modules: ['enterprise'], ok: 1 })).toBe(false);
  });
});

describe('uriMaxPoolSize', () => {
  it('reads maxPoolSize from the options, in any case, from single- and multi-host URIs', () => {
    expect(uriMaxPoolSize('mongodb://127.0.0.1:27017/hitscope?maxPoolSize=20')).toBe(20);
    expect(uriMaxPoolSize('mongodb://a:1,b:2/hitscope?replicaSet=rs&maxpoolsize=5')).toBe(5);
    expect(uriMaxPoolSize('mongodb+srv://u:p@cluster0.example.net/?retryWrites=true')).toBeNull();
    expect(uriMaxPoolSize('mongodb://127.0.0.1:27017/hitscope')).toBeNull();
  });
});

describe('choosePool', () => {
  it('gives FerretDB one connection, overriding nothing the operator wrote', () => {
    expect(choosePool('ferretdb', 'mongodb://127.0.0.1:1/hitscope')).toEqual({ maxPoolSize: 1 });
    expect(choosePool('ferretdb', 'mongodb://127.0.0.1:1/hitscope?maxPoolSize=1')).toEqual({ maxPoolSize: 1 });
  });

  it('keeps an explicit larger pool on FerretDB, with a warning that updates can be lost', () => {
    const choice = choosePool('ferretdb', 'mongodb://127.0.0.1:1/hitscope?maxPoolSize=100');
    expect(choice.maxPoolSize).toBeUndefined();
    expect(choice.warning).toMatch(/maxPoolSize=100 on FerretDB: concurrent updates of one document can be lost/);
  });

  it('leaves MongoDB on the driver’s pool (or the URI’s)', () => {
    expect(choosePool('mongodb', 'mongodb://127.0.0.1:1/hitscope')).toEqual({});
    expect(choosePool('mongodb', 'mongodb://127.0.0.1:1/hitscope?maxPoolSize=7')).toEqual({});
  });
});
