using BLite.Bson;
using BLite.Linq;

namespace BLite.Tests.Vectors;

public sealed class TypedVectorTests
{
    private static float[] Vector(Random random)
    {
        var vector = new float[NotesContext.Dimensions];
        for (var i = 0; i < vector.Length; i++)
        {
            vector[i] = (float)random.NextDouble();
        }

        return vector;
    }

    private static (NotesContext Db, List<Note> Notes) Seed(int count = 300)
    {
        var db = new NotesContext(DocumentDbContextOptions.ForMemory());
        var random = new Random(19);
        var notes = Enumerable.Range(1, count).Select(i => new Note
        {
            Id = i,
            Folder = i % 3 == 0 ? "work" : "home",
            Title = "note " + i,
            Embedding = Vector(random),
            Thumbnail = new float[] { i, -i, 0.5f },
        }).ToList();
        db.Notes.InsertMany(notes);
        return (db, notes);
    }

    private static float Euclidean(float[] a, float[] b) => (float)Math.Sqrt(a.Zip(b, (x, y) => (x - y) * (x - y)).Sum());

    [Fact]
    public void Float_arrays_and_memory_round_trip_exactly_as_bson_vectors()
    {
        var (db, notes) = Seed(3);
        using (db)
        {
            var stored = db.Notes.FindById(2)!;
            Assert.Equal(notes[1].Embedding, stored.Embedding);
            Assert.Equal(notes[1].Thumbnail.ToArray(), stored.Thumbnail.ToArray());
            using var read = db.Engine.BeginRead();
            var raw = db.Engine.GetCollection(db.Notes.Name).FindById(read, 2)!;
            Assert.Equal(BsonBinarySubtype.Vector, raw["Embedding"].BinarySubtype);
            Assert.Equal(BsonVector.Float32DType, raw["Embedding"].AsBinary[0]);
            Assert.Equal(notes[1].Embedding, BsonVector.ToFloat32Array(raw["Embedding"].AsBinary));
        }
    }

    [Fact]
    public void A_float_array_stored_before_vectors_became_binary_still_reads()
    {
        using var db = new NotesContext(DocumentDbContextOptions.ForMemory());
        // The earlier layout of a float[] member: a BSON array of doubles.
        db.Database.GetCollection(db.Notes.Name).Insert(new BsonDocument
        {
            { "_id", 7 },
            { "Title", "old" },
            { "Thumbnail", new BsonArray { 1.5, -2.25, 0.0 } },
        });

        var note = db.Notes.FindById(7)!;

        Assert.Equal(new[] { 1.5f, -2.25f, 0f }, note.Thumbnail.ToArray());
        db.Notes.Update(note);
        using var read = db.Engine.BeginRead();
        var rewritten = db.Engine.GetCollection(db.Notes.Name).FindById(read, 7)!;
        Assert.Equal(BsonBinarySubtype.Vector, rewritten["Thumbnail"].BinarySubtype);
    }

    [Fact]
    public void A_null_vector_is_stored_as_null_and_left_out_of_the_index()
    {
        var (db, _) = Seed(5);
        using (db)
        {
            db.Notes.Insert(new Note { Id = 50, Title = "no embedding" });

            Assert.Null(db.Notes.FindById(50)!.Embedding);
            Assert.True(db.Notes.FindById(50)!.Thumbnail.IsEmpty);
            var all = db.Notes.Query().NearestTo(n => n.Embedding, new float[NotesContext.Dimensions], k: 10).Select(n => n.Id).ToList();
            Assert.Equal(5, all.Count);
            Assert.DoesNotContain(50, all);
            Assert.True(db.Database.Verify().IsValid);
        }
    }

    [Fact]
    public void NearestTo_with_a_filter_matches_linq_to_objects_and_carries_distances()
    {
        var (db, notes) = Seed();
        using (db)
        {
            var query = Vector(new Random(5));
            var expected = notes.Where(n => n.Folder == "work").OrderBy(n => Euclidean(n.Embedding!, query)).Take(5).Select(n => n.Id).ToList();

            var found = db.Notes.Query().Where(n => n.Folder == "work").NearestTo(n => n.Embedding, query, k: 5).Select(n => n.Id).ToList();
            var withDistance = db.Notes.Query().Where(n => n.Folder == "work").NearestTo(n => n.Embedding, query, k: 5).WithDistance().ToList();

            Assert.Equal(expected, found);
            Assert.Equal(expected, withDistance.Select(m => m.Document.Id));
            Assert.All(withDistance, m => Assert.Equal(Euclidean(m.Document.Embedding!, query), m.Distance, 4));
        }
    }

    [Fact]
    public void NearestTo_without_a_filter_uses_hnsw_and_explain_shows_the_vector_plan()
    {
        var (db, notes) = Seed();
        using (db)
        {
            var query = Vector(new Random(6));
            var expected = notes.OrderBy(n => Euclidean(n.Embedding!, query)).Take(10).Select(n => n.Id).ToList();

            var found = db.Notes.Query().NearestTo(n => n.Embedding, query, k: 10, ef: 64).Select(n => n.Id).ToList();

            Assert.True(found.Intersect(expected).Count() >= 9, "recall@10 of at least 0.9");
            Assert.StartsWith("VECTOR HNSW vx_Embedding (Embedding) Euclidean 8d [ef 64]", db.Notes.Query().NearestTo(n => n.Embedding, query, k: 10, ef: 64).Explain(), StringComparison.Ordinal);
            Assert.StartsWith("VECTOR EXACT vx_Embedding", db.Notes.Query().Where(n => n.Folder == "work").NearestTo(n => n.Embedding, query, k: 10).Explain(), StringComparison.Ordinal);
        }
    }

    [Fact]
    public void A_vector_of_the_wrong_dimension_or_with_NaN_is_refused_and_nothing_is_written()
    {
        var (db, _) = Seed(10);
        using (db)
        {
            var wrong = Assert.Throws<BLiteVectorException>(() => db.Notes.Insert(new Note { Id = 100, Embedding = new float[3] }));
            Assert.Contains("3 dimensions", wrong.Message, StringComparison.Ordinal);
            var nan = new float[NotesContext.Dimensions];
            nan[2] = float.NaN;
            Assert.Throws<BLiteVectorException>(() => db.Notes.Insert(new Note { Id = 101, Embedding = nan }));

            var infinite = new float[NotesContext.Dimensions];
            infinite[5] = float.NegativeInfinity;
            var update = Assert.Throws<BLiteVectorException>(() => db.Notes.Update(new Note { Id = 1, Folder = "changed", Embedding = infinite }));
            Assert.Contains("component 5", update.Message, StringComparison.Ordinal);

            Assert.Equal(10, db.Notes.Count());
            Assert.Null(db.Notes.FindById(100));
            Assert.NotEqual("changed", db.Notes.FindById(1)!.Folder);
            var query = new float[NotesContext.Dimensions];
            query[0] = float.NaN;
            Assert.Throws<BLiteVectorException>(() => db.Notes.Query().NearestTo(n => n.Embedding, query, k: 3).ToList());
            var shortQuery = Assert.Throws<BLiteVectorException>(() => db.Notes.Query().NearestTo(n => n.Embedding, new float[2], k: 3).ToList());
            Assert.Contains("2 dimensions", shortQuery.Message, StringComparison.Ordinal);
            Assert.True(db.Database.Verify().IsValid);
        }
    }

    [Fact]
    public void A_vector_index_declared_with_a_bad_metric_or_parameters_is_refused_where_it_is_declared()
    {
        var entity = new ModelBuilder().Entity<Note>();

        var metric = Assert.Throws<BLiteVectorException>(() => entity.HasVectorIndex(n => n.Embedding, 8, (VectorMetric)7));
        Assert.Contains("metric 7", metric.Message, StringComparison.Ordinal);
        Assert.Throws<BLiteVectorException>(() => entity.HasVectorIndex(n => n.Embedding, dimensions: 0));
        Assert.Throws<BLiteVectorException>(() => entity.HasVectorIndex(n => n.Embedding, 8, VectorMetric.Cosine, m: 101));
        var ef = Assert.Throws<BLiteVectorException>(() => entity.HasVectorIndex(n => n.Thumbnail, 8, VectorMetric.Cosine, m: 16, efConstruction: 4));
        Assert.Contains("efConstruction", ef.Message, StringComparison.Ordinal);
        Assert.Empty(entity.VectorIndexes);
    }

    [Fact]
    public void Deleted_and_updated_notes_leave_the_search_at_once()
    {
        var (db, notes) = Seed(100);
        using (db)
        {
            var query = notes[41].Embedding!;
            Assert.Equal(42, db.Notes.Query().NearestTo(n => n.Embedding, query, k: 1).Single().Id);

            db.Notes.Delete(42);
            Assert.DoesNotContain(42, db.Notes.Query().NearestTo(n => n.Embedding, query, k: 10).Select(n => n.Id).ToList());

            var moved = db.Notes.FindById(7)!;
            moved.Embedding = query;
            db.Notes.Update(moved);
            Assert.Equal(7, db.Notes.Query().NearestTo(n => n.Embedding, query, k: 1).Single().Id);
            Assert.True(db.Database.Verify().IsValid);
        }
    }
}
