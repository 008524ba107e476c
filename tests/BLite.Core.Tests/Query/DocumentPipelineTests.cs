using BLite.Bson;
using BLite.Core.Query;

namespace BLite.Core.Tests.Query;

public class DocumentPipelineTests
{
    [Fact]
    public void Filter_sort_skip_take_over_raw_documents_match_the_reference()
    {
        const int seed = 77;
        var random = new RandomDocuments(seed);
        var documents = random.Documents(200);
        var dictionary = new BsonFieldDictionary();
        var encoded = documents.Select(d => (ReadOnlyMemory<byte>)d.ToBytes(dictionary)).ToList();
        FieldPath[] paths = ["a", "b", "c.x", "d", "e.x", "_id"];
        for (var round = 0; round < 60; round++)
        {
            var filter = random.Filter();
            var sort = Enumerable.Range(0, 1 + random.Next(2)).Select(_ => new SortKey(paths[random.Next(paths.Length)], random.Next(2) == 0)).ToList();
            var skip = random.Next(4);
            long take = round % 3 == 0 ? long.MaxValue : random.Next(30);

            var expected = InMemoryIndexedCollection.SortReference(documents.Where(d => ReferenceEvaluator.Matches(filter, d)).ToList(), sort)
                .Skip(skip).Take((int)Math.Min(take, int.MaxValue)).Select(d => d["_id"].AsInt32).ToList();
            var actual = DocumentPipeline.Run(encoded, FilterEvaluator.Create(filter, dictionary), sort, dictionary, skip, take)
                .Select(bytes => BsonDocument.FromBytes(bytes.Span, dictionary)["_id"].AsInt32).ToList();

            Assert.True(expected.SequenceEqual(actual), $"seed {seed}, round {round}: {filter} sort {string.Join(", ", sort)} skip {skip} take {take}");
        }
    }

    [Fact]
    public void Sorting_is_stable_for_ties()
    {
        var dictionary = new BsonFieldDictionary();
        var documents = Enumerable.Range(0, 50)
            .Select(i => (ReadOnlyMemory<byte>)new BsonDocument { { "_id", i }, { "group", i % 3 } }.ToBytes(dictionary)).ToList();
        var ids = DocumentPipeline.Run(documents, null, [new SortKey("group")], dictionary, take: 20)
            .Select(bytes => BsonDocument.FromBytes(bytes.Span, dictionary)["_id"].AsInt32).ToList();
        var expected = Enumerable.Range(0, 50).OrderBy(i => i % 3).Take(20).ToList();
        Assert.Equal(expected, ids);
    }
}
