-- The identity provider's subject bound at a person's first OpenID Connect sign-in.
ALTER TABLE "User" ADD COLUMN "oidcSubject" TEXT;

CREATE UNIQUE INDEX "User_oidcSubject_key" ON "User"("oidcSubject");
