import { withDatabaseName } from './database-uri.js';

describe('withDatabaseName', () => {
  it('adds /hitscope when the URI names no database, keeping the options', () => {
    expect(withDatabaseName('mongodb://127.0.0.1:27017')).toBe('mongodb://127.0.0.1:27017/hitscope');
    expect(withDatabaseName('mongodb://127.0.0.1:27017/')).toBe('mongodb://127.0.0.1:27017/hitscope');
    expect(withDatabaseName('mongodb+srv://u:p@cluster0.example.net/?retryWrites=true&w=majority')).toBe(
      'mongodb+srv://u:p@cluster0.example.net/hitscope?retryWrites=true&w=majority',
    );
    expect(withDatabaseName('mongodb://127.0.0.1:27017?maxPoolSize=5')).toBe('mongodb://127.0.0.1:27017/hitscope?maxPoolSize=5');
  });

  it('keeps a database that is named', () => {
    expect(withDatabaseName('mongodb://u:p@db.example.net:27017/analytics?authSource=admin')).toBe(
      'mongodb://u:p@db.example.net:27017/analytics?authSource=admin',
    );
  });

  it('accepts a replica set seed list (several hosts with ports)', () => {
    expect(withDatabaseName('mongodb://a.example.net:27017,b.example.net:27017/?replicaSet=rs0')).toBe(
      'mongodb://a.example.net:27017,b.example.net:27017/hitscope?replicaSet=rs0',
    );
    expect(withDatabaseName('mongodb://a:27017,b:27018,c:27019/app')).toBe('mongodb://a:27017,b:27018,c:27019/app');
  });
});
