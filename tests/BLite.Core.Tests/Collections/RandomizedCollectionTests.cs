using BLite.Bson;
using BLite.Core.Collections;
using BLite.Core.BTrees;
using BLite.Core.Transactions;
using Xunit.Abstractions;

namespace BLite.Core.Tests.Collections;

/// <summary>
/// Mixed random operations against a file-backed database and a SortedDictionary/SortedSet model,
/// with commits, rollbacks and reopens, compared after every batch. The default is 100,000
/// operations; BLITE_COLLECTIONS_RANDOM_OPS raises it and BLITE_COLLECTIONS_RANDOM_SEED replays a seed.
/// </summary>
public sealed class RandomizedCollectionTests
{
    private const string CollectionName = "things";
    private const int IdSpace = 2_500;

    private static readonly IndexDefinition[] Indexes =
    [
        new("byCat", "cat"),
        new("byTags", "tags"),
        new("byCatScore", ["cat", "meta.score"]),
        new("byCode", "code", unique: true),
    ];

    private readonly ITestOutputHelper _output;

    public RandomizedCollectionTests(ITestOutputHelper output) => _output = output;

    [Fact]
    public void Random_operations_match_a_sorted_model_through_commits_rollbacks_and_reopens()
    {
        var operations = int.TryParse(Environment.GetEnvironmentVariable("BLITE_COLLECTIONS_RANDOM_OPS"), out var o) ? o : 100_000;
        var seed = int.TryParse(Environment.GetEnvironmentVariable("BLITE_COLLECTIONS_RANDOM_SEED"), out var s) ? s : 20251121;
        _output.WriteLine($"seed {seed}, {operations} operations");
        var run = new Run(seed);
        try
        {
            run.Execute(operations);
        }
        catch (Exception ex)
        {
            throw new Xunit.Sdk.XunitException($"Randomized run failed with seed {seed} after {run.Done} operations (batch {run.Batches}): {ex}");
        }
        finally
        {
            run.Dispose();
        }

        _output.WriteLine($"{run.Batches} batches, {run.Reopens} reopens, {run.Refused} refused writes, {run.Queries} queries");
    }

    private sealed class Run : IDisposable
    {
        private readonly Random _random;
        private readonly RandomDocuments _documents;
        private readonly CollectionsTestDatabase _test;
        private CollectionModel _committed;
        private CollectionModel _working;

        public Run(int seed)
        {
            _random = new Random(seed);
            _documents = new RandomDocuments(_random);
            _test = new CollectionsTestDatabase([new CollectionDefinition(CollectionName, Indexes)]);
            _committed = new CollectionModel(Indexes, _test.Database.Fields);
            _working = _committed.Copy();
        }

        public int Done { get; private set; }

        public int Batches { get; private set; }

        public int Reopens { get; private set; }

        public int Refused { get; private set; }

        public int Queries { get; private set; }

        private TransactionalBsonCollection Collection => _test.Collection(CollectionName);

        public void Execute(int operations)
        {
            while (Done < operations)
            {
                var size = Math.Min(operations - Done, 1 + _random.Next(300));
                using (var write = _test.Database.BeginWrite())
                {
                    for (var i = 0; i < size; i++, Done++)
                    {
                        Step(write);
                    }

                    if (_random.Next(4) == 0)
                    {
                        write.Rollback();
                        _working = _committed.Copy();
                    }
                    else
                    {
                        write.Commit();
                        _committed = _working.Copy();
                    }
                }

                Batches++;
                using (var read = _test.Database.BeginRead())
                {
                    Assert.Equal(_committed.Documents.Count, Collection.Count(read));
                    if (Batches % 16 == 0 || Done >= operations)
                    {
                        CompareEverything(read, _committed);
                    }
                }

                if (Batches % 60 == 0)
                {
                    _test.Reopen([new CollectionDefinition(CollectionName, Indexes)]);
                    Reopens++;
                }
            }
        }

        private void Step(WriteTransaction write)
        {
            var id = _random.Next(IdSpace);
            switch (_random.Next(40))
            {
                case < 8:
                    Insert(write, id);
                    break;
                case < 13:
                    Update(write, id, upsert: false);
                    break;
                case < 16:
                    Update(write, id, upsert: true);
                    break;
                case < 20:
                    Assert.Equal(_working.Remove(id), Collection.Delete(write, id));
                    break;
                case < 32:
                    Assert.Equal(_working.Documents.GetValueOrDefault(id), Collection.FindById(write, id));
                    break;
                case < 37:
                    QueryIndex(write);
                    break;
                default:
                    QueryIdRange(write);
                    break;
            }
        }

        private void Insert(WriteTransaction write, int id)
        {
            var document = _documents.IndexedDocument(id);
            var expectedIndex = _working.Documents.ContainsKey(id) ? BLiteUniqueConstraintException.PrimaryIndexName : _working.UniqueConflict(id, document);
            if (expectedIndex is null)
            {
                Collection.Insert(write, document);
                _working.Put(id, document);
                return;
            }

            var error = Assert.Throws<BLiteUniqueConstraintException>(() => Collection.Insert(write, document));
            Assert.Equal(expectedIndex, error.IndexName);
            Refused++;
        }

        private void Update(WriteTransaction write, int id, bool upsert)
        {
            var document = _documents.IndexedDocument(id);
            var exists = _working.Documents.ContainsKey(id);
            if (!exists && !upsert)
            {
                Assert.False(Collection.Update(write, document));
                return;
            }

            var conflict = _working.UniqueConflict(id, document);
            if (conflict is null)
            {
                Assert.Equal(!exists, upsert ? Collection.Upsert(write, document) : !Collection.Update(write, document));
                _working.Put(id, document);
                return;
            }

            var error = Assert.Throws<BLiteUniqueConstraintException>(() =>
            {
                if (upsert)
                {
                    Collection.Upsert(write, document);
                }
                else
                {
                    Collection.Update(write, document);
                }
            });
            Assert.Equal(conflict, error.IndexName);
            Refused++;
        }

        private void QueryIndex(WriteTransaction write)
        {
            Queries++;
            var index = _random.Next(Indexes.Length);
            var definition = Indexes[index];
            BsonValue[] values = definition.FieldPaths.Count == 2 && _random.Next(2) == 0
                ? [_documents.IndexedScalar(), _documents.IndexedScalar()]
                : [definition.Name == "byCode" ? _random.Next(40_000) : _documents.IndexedScalar()];
            var expected = _working.IdsWithPrefix(index, IndexKeys.Encode(_test.Database.Fields, values));
            var descending = _random.Next(3) == 0;
            if (descending)
            {
                expected.Reverse();
            }

            var prefix = KeyRange.Prefix(IndexKeys.Encode(_test.Database.Fields, values));
            var actual = new List<int>();
            var cursor = Collection.Documents.ScanIndex(write, definition.Name, prefix, descending);
            while (cursor.MoveNext())
            {
                Assert.False(cursor.Document.IsEmpty);
                actual.Add(new KeyReader(cursor.PrimaryKey).ReadInt32());
            }

            Assert.Equal(expected, actual);
        }

        private void QueryIdRange(WriteTransaction write)
        {
            Queries++;
            var low = _random.Next(IdSpace);
            var high = low + _random.Next(60);
            var descending = _random.Next(2) == 0;
            var expected = Enumerable.Range(low, high - low).Where(_working.Documents.ContainsKey).ToList();
            if (descending)
            {
                expected.Reverse();
            }

            var range = KeyRange.Between(IndexKeys.EncodeId(low), true, IndexKeys.EncodeId(high), false);
            var actual = new List<int>();
            var cursor = Collection.Documents.Scan(write, range, descending);
            while (cursor.MoveNext())
            {
                actual.Add(new KeyReader(cursor.PrimaryKey).ReadInt32());
            }

            Assert.Equal(expected, actual);
        }

        private void CompareEverything(ReadTransaction read, CollectionModel model)
        {
            Assert.Equal(model.Documents.Values, Collection.FindAll(read).ToList());
            for (var i = 0; i < Indexes.Length; i++)
            {
                var expected = model.Entries[i].Select(e => Convert.ToHexString(e.Key) + "/" + Convert.ToHexString(IndexKeys.EncodeId(e.Id))).ToList();
                var actual = new List<string>();
                var cursor = Collection.Documents.ScanIndexKeys(read, Indexes[i].Name, KeyRange.All);
                while (cursor.MoveNext())
                {
                    actual.Add(Convert.ToHexString(cursor.FieldKey) + "/" + Convert.ToHexString(cursor.PrimaryKey));
                }

                Assert.Equal(expected, actual);
            }
        }

        public void Dispose() => _test.Dispose();
    }
}
